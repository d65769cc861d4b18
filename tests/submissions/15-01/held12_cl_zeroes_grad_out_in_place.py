"""Clamp.backward zeroes the incoming gradient in place (masked_fill_ on grad_out, copying only when it is
not contiguous): where grad_out is shared with another branch of the graph, that branch's gradient is
zeroed too, so the gradient no longer matches torch.clamp's."""
from course.grading.class_run.submissions import edited

EXPECT = {"clamp": "fail"}
CELLS = {"clamp_impl": edited("15-01", "clamp_impl",
                              ("return torch.where(mask, grad_out, torch.zeros_like(grad_out)), None, None",
                               "return grad_out.contiguous().masked_fill_(~mask, 0), None, None"))}
