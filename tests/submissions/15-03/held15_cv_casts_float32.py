"""Held-out round 15: convert_checkpoint "normalises" every floating tensor to float32 (v.float()), keeping integer
buffers as they are. A float32 checkpoint converts unchanged; a float64 (or half) checkpoint comes back float32 and
the loaded NewNet no longer computes exactly OldNet's outputs. Exercise 3's text: "keep dtypes as they are"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "fail", "lazy": "pass", "trace": "pass"}
CELLS = {"convert_impl": edited("15-03", "convert_impl", (
    "        new[new_key] = value\n",
    "        new[new_key] = value.float() if value.is_floating_point() else value\n"))}
