"""Held-out round 29: the first update() replaces self.module by a fresh `copy.deepcopy(model)` (the
"first update copies" done literally), so after it the averaged parameters require grad again (only the
copy made in __init__ was frozen), and self.module is no longer the object __init__ made. The text:
"keeps a deep copy of `model` in `self.module` ... Its parameters should not require gradients."
Wrong after the first update on any model whose parameters require grad."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        first = self.num_updates == 0\n",
     "        first = self.num_updates == 0\n"
     "        if first:\n"
     "            self.module = copy.deepcopy(model)\n"
     "            self.num_updates += 1\n"
     "            return\n"))}
