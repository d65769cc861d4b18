"""Known-wrong time_op (round 16, contract walk): the CUDA branch runs its timed calls under torch.no_grad()
("events need no autograd"); the CPU branch is right. The text says fn is called in the caller's grad mode and
time_op changes none of it, on every device: on CUDA the timed calls run without gradients."""
from course.grading.class_run.submissions import edited

CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ("        start.record()\n        for _ in range(iters):\n            fn()\n        end.record()\n",
     "        start.record()\n        with torch.no_grad():\n            for _ in range(iters):\n                fn()\n"
     "        end.record()\n"))}
EXPECT = {"cuda_timing": "fail"}
