"""``python -m course.grading.pipeline``: the grading pipeline's entry point (``class_run/pipeline.py``)."""
import runpy
import sys

if __name__ == "__main__":
    from course.grading.records import db_url  # no password typed in --db stays on this process's command line
    db_url.reexec_without_password("course.grading.pipeline", sys.argv[1:])
    runpy.run_module("course.grading.class_run.pipeline", run_name="__main__", alter_sys=True)
