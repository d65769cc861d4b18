"""Where a student's files cross into the grader's world, and where feedback goes back.

The exchange's collect (``exchange_collect``), LMS downloads (``lms_*``), nbgrader's own copies of a
submitted folder (``safe_files``) and the notebooks autograde reads (``notebook_intake``). A
student's file is data here, never a path to follow. May import ``records/`` and the shared core;
never the sandbox, the judge or the class run.
"""
