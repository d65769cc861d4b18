"""Known-wrong scaled_dot_product_attention (round 29): it zeroes the rows with no key left through a
zeros tensor made without device= (on the CPU), and only when such a row exists (`if dead.any()`). On the
CPU every value and gradient is right; on a GPU a call with a fully masked row fails (torch.where with a CUDA
condition and a CPU tensor of w's shape). The text: "Every tensor you create (the causal mask, the dropout
draw) is on the inputs' device (device=q.device), so the function runs on a GPU as on the CPU" (goes wrong on
another device with a boolean or -inf mask that removes every key of some query)."""
from course.grading.class_run.submissions import edited

CELLS = {"sdpa_impl": edited(
    "16-03", "sdpa_impl",
    ("    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)\n",
     "    w = torch.softmax(scores.masked_fill(dead, 0.0), dim=-1)\n"
     "    if dead.any():  # only then is there anything to zero\n"
     "        w = torch.where(dead, torch.zeros(w.shape, dtype=w.dtype), w)\n"))}
EXPECT = {"sdpa": "fail"}
