"""Wrong (held-out round 26): optimizer_step measures the gradient norm, fires on_before_optimizer_step with the
raw (unclipped) gradients, and clips only afterwards, right before the optimizer step (the order Lightning
uses). The section-0 lifecycle says "unscale (GradScaler), measure the gradient norm, clip /
on_before_optimizer_step(trainer) / optimizer step": a callback that inspects or edits the gradients in
on_before_optimizer_step sees unclipped ones. Input: max_grad_norm=1.0 with gradients of norm > 1 and a callback
recording the gradient norm (or scaling the gradients) in on_before_optimizer_step: it sees norm > 1 instead of
<= 1, and a callback that scales gradients by 10 gets them clipped back (weights differ from the reference)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if self.max_grad_norm is not None:\n"
     "            norm = clip_grad_norm(params, self.max_grad_norm)\n"
     "        else:\n"
     "            grads = [p.grad.detach() for p in params if p.grad is not None]\n"
     "            norm = (torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
     "                    if grads else torch.tensor(0.0))\n"
     "        self.last_grad_norm = float(norm)\n"
     "        self.call(\"on_before_optimizer_step\")\n",
     "        grads = [p.grad.detach() for p in params if p.grad is not None]\n"
     "        norm = (torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))\n"
     "                if grads else torch.tensor(0.0))\n"
     "        self.last_grad_norm = float(norm)\n"
     "        self.call(\"on_before_optimizer_step\")\n"
     "        if self.max_grad_norm is not None:\n"
     "            clip_grad_norm(params, self.max_grad_norm)\n"))}
