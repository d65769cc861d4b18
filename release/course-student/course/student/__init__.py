"""What ships to students: the helpers their notebooks import.

- ``course.student.env``: device choice and run mode (heavy demos only when a person runs it).
- ``course.student.data``: FashionMNIST and CIFAR-10, or an announced synthetic stand-in.
- ``course.student.hidden``: ``run_hidden``, the one call a hidden-test block makes.
- ``course.student.checks``: visible checks with messages that name the input, what was
  expected and what came back.

Nothing here imports anything else of ``course`` (checked by import-linter, see pyproject.toml).
"""
