"""Held-out round 25: the EMA keeps its copy on the CPU to save accelerator memory
(`copy.deepcopy(model).cpu()`, as some libraries offer); update() moves each live tensor to the copy's
device. On a CPU model nothing differs; on a GPU model `self.module` is not where the model is, so
`evaluate(ema.module, test_loader, DEVICE)` in the notebook's demo crashes and its parameters differ in
device from AveragedModel's. The text: "keeps a deep copy of `model` in `self.module` (an `nn.Module` of
the same architecture ...)" and "self.module's parameters (and buffers) equal those of AveragedModel(...)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"ema": "fail"}
CELLS = {"ema_impl": edited(
    "15-04", "ema_impl",
    ("        self.module = copy.deepcopy(model)\n",
     "        self.module = copy.deepcopy(model).cpu()     # keep the average off the accelerator\n"))}
