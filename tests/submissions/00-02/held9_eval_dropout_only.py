"""Held-out round 9: evaluate switches only the dropout layers (every nn.modules.dropout._DropoutNd,
AlphaDropout included) to eval mode, on the belief that eval only turns dropout off; a BatchNorm layer
in training mode then normalizes with the batch's statistics and updates its running statistics; the
text says the output equals what model.eval() followed by model(x) gives."""
from course.grading.class_run.submissions import edited

EXPECT = {"graph": "pass", "engine": "pass", "compress": "pass", "evaluate": "fail", "checkpoint": "pass"}
CELLS = {"evaluate_impl": edited(
    "00-02", "evaluate_impl",
    ("    model.eval()\n",
     "    for m in model.modules():\n"
     "        if isinstance(m, nn.modules.dropout._DropoutNd):\n"
     "            m.eval()\n"))}
