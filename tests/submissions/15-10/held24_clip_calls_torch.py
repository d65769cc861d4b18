"""Wrong (held-out round 24): clip_grad_norm simply calls torch.nn.utils.clip_grad_norm_ (the results are the
reference's own). Contradicts the "how" sentence "`torch.nn.utils.clip_grad_norm_` is the reference; write your own
without calling it." Goes wrong on any call: the forbidden function runs."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "fail"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("    grads = [p.grad for p in parameters if p.grad is not None]\n    if not grads:\n",
     "    parameters = list(parameters)\n"
     "    if any(p.grad is not None for p in parameters):\n"
     "        return torch.nn.utils.clip_grad_norm_(parameters, max_norm)\n"
     "    grads = [p.grad for p in parameters if p.grad is not None]\n    if not grads:\n"))}
