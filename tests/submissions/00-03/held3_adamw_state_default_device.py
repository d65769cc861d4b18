"""Wrong (held-out round 3): ScratchAdamW makes exp_avg and exp_avg_sq with torch.zeros(p.shape,
dtype=p.dtype), on the default device: on a GPU the first step() mixes CUDA and CPU tensors and raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "pass", "sgd": "pass", "adamw": "fail", "schedule": "pass", "collate": "pass"}
EXPECT_GPU = {"adamw": "fail"}
CELLS = {"adamw_impl": edited("00-03", "adamw_impl", (
    'state["exp_avg"] = torch.zeros_like(p)', 'state["exp_avg"] = torch.zeros(p.shape, dtype=p.dtype)'), (
    'state["exp_avg_sq"] = torch.zeros_like(p)', 'state["exp_avg_sq"] = torch.zeros(p.shape, dtype=p.dtype)'))}
