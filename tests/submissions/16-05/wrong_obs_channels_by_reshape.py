"""Per channel, reshapes x to (C, -1) without moving ch_axis first: right for ch_axis=0 only."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)",
    "torch.aminmax(y.reshape(y.shape[self.ch_axis], -1), dim=1)"))}
