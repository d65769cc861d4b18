"""Held-out round 12 (state over several calls: "simulate(trace) ... returns the stats after each op" of
*that* trace): the classic mutable default argument, `def __init__(self, segments=[])`, makes every new
model start with the segments the previous models left behind, so a second simulate() call reports the
first trace's reserved memory too."""
from course.grading.class_run.submissions import edited

EXPECT = {"allocator_model": "fail"}
BASE = "reference"
CELLS = {"allocator_impl": edited("15-07", "allocator_impl", (
    "    def __init__(self):\n        ### BEGIN SOLUTION\n        self.segments = []   # live segments",
    "    def __init__(self, segments=[]):\n        ### BEGIN SOLUTION\n        self.segments = segments   # live segments",
))}
