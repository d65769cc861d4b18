"""Returns base_lr as given at the end of the warm-up (step == warmup_steps, "the peak"): for an int
base_lr the result is an int, not the Python float the text asks for."""
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edited("00-03", "schedule_impl", (
    """    if step < warmup_steps:""",
    """    if step == warmup_steps:
        return base_lr
    if step < warmup_steps:"""))}
