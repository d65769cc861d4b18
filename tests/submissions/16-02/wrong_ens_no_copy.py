"""Moves models[0] itself to the meta device as the base (no deep copy): the outputs are right, but the first
model loses its weights."""
from course.grading.class_run.submissions import edited

EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", ("base = copy.deepcopy(models[0]).to(\"meta\")",
                                                            "base = models[0].to(\"meta\")"))}
