"""Held-out round 20, contract walk (not counted): update() adds each batch's counts out of place, compute()
hands out the internal confusion tensor itself, and reset() reuses that tensor with zero_(), so a dict returned
before reset() is wiped by it. The text: "A dict returned by `compute()` is a snapshot"."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        self._confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)\n",
     "        if hasattr(self, \"_confusion\"):\n"
     "            self._confusion.zero_()\n"
     "        else:\n"
     "            self._confusion = torch.zeros(self.num_classes, self.num_classes, dtype=torch.long)\n"),
    ("            self._confusion += torch.bincount(pairs, minlength=c * c).view(c, c)\n",
     "            self._confusion = self._confusion + torch.bincount(pairs, minlength=c * c).view(c, c)\n"),
    ("\"confusion\": self._confusion.clone()}\n        correct",
     "\"confusion\": self._confusion}\n        correct"),
    ("                \"confusion\": self._confusion.clone()}\n",
     "                \"confusion\": self._confusion}\n"))}
