"""Round 22: RangeObserver turns a negative ch_axis into a positive one on the first tensor it sees and keeps
it (self.ch_axis = ch_axis % x.dim()). Later tensors with more dimensions are then reduced along the wrong one
(ch_axis=-1 on a (3, 4) tensor becomes 1; on a (2, 3, 4) tensor that is the dimension of size 3). The text:
"negative ch_axis counts from the end" of each x; PyTorch's per-channel observers resolve it on every call."""
from course.grading.class_run.submissions import edited

EXPECT = {"observer": "fail", "quant": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited("16-05", "observer_impl", (
    "        else:\n            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)",
    "        else:\n            self.ch_axis = self.ch_axis % y.dim()  # resolve a negative axis once\n"
    "            lo, hi = torch.aminmax(y.movedim(self.ch_axis, 0).flatten(1), dim=1)"))}
