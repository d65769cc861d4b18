"""Round 16 (written after phase 1, for the class "inputs left as they were"): CondBranchyNet saves memory at
inference: under torch.no_grad() it writes the (possibly inverted) batch back into the caller's tensor with
x.copy_(...); the logits are right, but the caller's batch comes back inverted ("computes exactly what BranchyNet
computes": BranchyNet inverts a copy). With autograd on it computes a new tensor, as the reference does."""
from course.grading.class_run.submissions import edited

EXPECT = {"cond_net": "fail"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", (
    "        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))",
    """        flipped = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        x = x.copy_(flipped) if not torch.is_grad_enabled() else flipped"""))}
