"""Differentiates every parameter, frozen ones included (all of named_parameters() in the dict)."""
from course.grading.class_run.submissions import edited

EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}",
    "params = {k: p.detach() for k, p in model.named_parameters()}"))}
