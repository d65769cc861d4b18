"""Held-out round 11, written as a wrong answer and kept as a correct one: the moving average is the convex
combination (1 - c) * min_val + c * x_min, equal to min_val + c * (x_min - min_val) in exact arithmetic and a few
units in the last place from it in float32 (about a quarter of updates differ in the last bit). The suite already
accepted torch.lerp, which rounds the same way (blind2_unusual_where_einsum), and the text now says so: other
float32 forms of the update count as equal."""
from course.grading.class_run.submissions import edited

EXPECT = {"quant": "pass", "observer": "pass", "fake_quant": "pass", "qlinear": "pass", "qat": "pass"}
CELLS = {"observer_impl": edited(
    "16-05", "observer_impl",
    ("            self.min_val = self.min_val + self.c * (lo - self.min_val)\n"
     "            self.max_val = self.max_val + self.c * (hi - self.max_val)\n",
     "            self.min_val = (1 - self.c) * self.min_val + self.c * lo\n"
     "            self.max_val = (1 - self.c) * self.max_val + self.c * hi\n"))}
