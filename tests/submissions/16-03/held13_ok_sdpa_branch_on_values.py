# Correct, written differently: the fix for rows with no key left runs only when such a row exists, a Python
# branch on a tensor's value (bool(dead.any())). Meta tensors hold no values, so the device check must run it
# on CPU inputs with meta as the default device (probelib.stand_in_device), not reject it.
from course.grading.class_run.submissions import edited

EXPECT = {"sdpa": "pass"}
CELLS = {"sdpa_impl": edited("16-03", "sdpa_impl", (
    "    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)\n",
    "    if bool(dead.any()):  # pay for the fix only when some row has no key left\n"
    "        w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)\n"
    "    else:\n"
    "        w = torch.softmax(scores, dim=-1)\n"))}
