"""``python -m course.grading.pipeline``: the grading pipeline's entry point (``class_run/pipeline.py``)."""
import runpy

if __name__ == "__main__":
    runpy.run_module("course.grading.class_run.pipeline", run_name="__main__", alter_sys=True)
