"""What a class run hands the instructor: the class report page (``page``, ``python -m
course.grading.report``), its plots (``plots``) and the gradebook's CSV with a status column
(``grades_csv``). Reads ``records/`` and the gradebook; never reaches the sandbox or the class run.
"""
