# bubble_fraction rounds to 4 decimals "for display": 3/11 comes back as 0.2727.
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edited("16-04", "schedule_impl", (
    "    return 1.0 - busy / (S * T)\n",
    "    return round(1.0 - busy / (S * T), 4)\n"))}
