"""Wrong: "bubble_fraction(schedule, S): for any list of such tuples ..., return the fraction of the S·T
(stage, step) slots in which no operation runs". This one counts busy slots as len(schedule), so a list
holding two operations in one (stage, step) slot counts that slot twice and reports too small a bubble
(even a negative one)."""
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edited("16-04", "schedule_impl",
                                 ("busy = len({(t, s) for t, s, _, _ in schedule})", "busy = len(schedule)"))}
