"""``python -m course.grading.cluster``: grading on a Slurm cluster's entry point (``class_run/cluster.py``)."""
import runpy

if __name__ == "__main__":
    runpy.run_module("course.grading.class_run.cluster", run_name="__main__", alter_sys=True)
