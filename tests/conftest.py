# Every hidden suite talks to submissions through course.pytest_plugin
# (fixtures `student` and `gen`, markers `task` and `gpu`).
pytest_plugins = ["course.pytest_plugin"]
