"""Held-out round 29: update() appends each batch's `float(loss) * n` to an `array.array('d')` and
compute() adds them with math.fsum ("exact summation"). Values are right, but the state grows by 8 bytes
per update, without bound. The text: "Store nothing that grows with the number of updates"
(and the class docstring: "in O(C^2) memory"). Wrong after any number of updates."""
from course.grading.class_run.submissions import edited

EXPECT = {"running_metrics": "fail"}
CELLS = {"running_metrics_impl": edited(
    "15-04", "running_metrics_impl",
    ("        self._loss_sum = 0.0\n",
     "        import array\n        self._losses = array.array('d')\n"),
    ("        self._loss_sum += float(loss) * n\n",
     "        self._losses.append(float(loss) * n)\n"),
    ('        return {"loss": self._loss_sum / self._count,',
     '        return {"loss": math.fsum(self._losses) / self._count,'))}
