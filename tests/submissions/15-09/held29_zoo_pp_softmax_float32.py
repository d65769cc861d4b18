"""Held-out round 29 (15-09 zoo): fixed_predict_proba computes the softmax with F.softmax(model(x), dim=1,
dtype=torch.float32) ("probabilities in full precision"). For a float64 model the probabilities come back in
float32 (rounded: up to ~6e-8 relative off, and 1 - p for p near 1 loses every digit below 1e-7); for a float16 or
bfloat16 model they come back in float32 too.
Breaks "fixed_predict_proba(model, x) returns the softmax probabilities of model(x) over dimension 1" and "Each must
compute what the broken one was meant to compute" (the broken version's F.softmax(model(x), dim=1) keeps
model(x)'s dtype)."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    "            return F.softmax(model(x), dim=1)\n",
    "            return F.softmax(model(x), dim=1, dtype=torch.float32)\n"))}
