"""Held-out round 13: a batch of one needs no vmap, so N == 1 runs loss.backward() on the model and reads
.grad, clearing it with zero_grad() before and after: every .grad the caller had set is gone (None). The
text: "Leave the model as it was: its parameters (values and `requires_grad`), buffers, `.grad` fields and
mode unchanged" and "Run the model through `functional_call` under `vmap`" (N >= 1)."""
from course.grading.class_run.submissions import edited

EXPECT = {"per_sample": "fail"}
CELLS = {"per_sample_impl": edited(
    "16-02", "per_sample_impl",
    ("    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}\n",
     "    if x.shape[0] == 1:\n"
     "        model.zero_grad()\n"
     "        loss_fn(model(x), y).backward()\n"
     "        one = {k: p.grad.detach().clone().unsqueeze(0) for k, p in model.named_parameters() if p.requires_grad}\n"
     "        model.zero_grad()\n"
     "        return one\n"
     "    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}\n"))}
