"""Wrong: "bubble_fraction(schedule, S): for any list of such tuples (sorted or not), with T = 1 + the
largest time step in it". This one takes T as the number of distinct time steps in the list, which is the
same for the two schedules but too small for a list with a time step in which no stage runs anything."""
from course.grading.class_run.submissions import edited

EXPECT = {"schedule": "fail"}
CELLS = {"schedule_impl": edited("16-04", "schedule_impl",
                                 ("T = 1 + max(t for t, _, _, _ in schedule)", "T = len({t for t, _, _, _ in schedule})"))}
