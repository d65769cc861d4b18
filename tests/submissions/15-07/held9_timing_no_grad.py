"""Held-out round 9: time_op runs every call of fn under torch.no_grad() 'to keep autograd out of
the timing', so fn does not run as the caller wrote it: its outputs carry no graph and a fn that calls
backward() fails. The text: time_op calls fn() warmup + iters times and times those calls."""
from course.grading.class_run.submissions import edited

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass", "cuda_timing": "fail"}
CELLS = {"timing_impl": edited(
    "15-07", "timing_impl",
    ('    device = torch.device(device)\n',
     '    device = torch.device(device)\n    fn = torch.no_grad()(fn)\n'))}
