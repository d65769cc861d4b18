"""Known-wrong time_op (round 18, second pass, not counted): on CUDA it calls torch.cuda.manual_seed(0) before
the timed calls, "so every timing draws the same random numbers". The text: fn runs with the caller's
random-number state and time_op seeds nothing itself (no manual_seed of its own)."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("        torch.cuda.synchronize(device)\n",
     "        torch.cuda.synchronize(device)\n        torch.cuda.manual_seed(0)  # reproducible GPU work per timing\n"))}
EXPECT = {"cuda_timing": "fail"}
