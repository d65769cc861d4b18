"""Held-out round 20: `_unbroadcast` by hand: sum the leading dimensions away, then sum a dimension where the
leaf has size 1 only when the gradient's is *larger* than 1 (`gs > 1`). A size-1 operand broadcast against a
size-0 dimension (shape (1,) with (0,), or (3, 1) with (3, 0)) keeps the gradient's 0 and gets a `.grad` of
shape (0,) instead of zeros of its own shape. The text: "adds d(out)/d(leaf) into `.grad` ... with the leaf's
shape" and "broadcasting like torch"."""
from course.grading.class_run.submissions import edited

EXPECT = {"engine": "fail"}
CELLS = {"engine_impl": edited(
    "00-02", "engine_impl",
    ("        g = g.sum_to_size(like.shape) if g.shape != like.shape else g\n",
     "        while g.dim() > like.dim():\n"
     "            g = g.sum(0)\n"
     "        for i, (gs, ls) in enumerate(zip(g.shape, like.shape)):\n"
     "            if ls == 1 and gs > 1:\n"
     "                g = g.sum(i, keepdim=True)\n"))}
