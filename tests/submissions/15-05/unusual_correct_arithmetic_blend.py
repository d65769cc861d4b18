"""Correct: CondBranchyNet chooses the side with arithmetic instead of torch.cond or torch.where: the strict
comparison of the batch mean is cast to a 0/1 float s, and the input becomes s * (1 - x) + (1 - s) * x, so
both sides are always computed and the one multiplied by zero drops out exactly (finite pixels)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl",
    ("        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n",
     "        s = (x.mean() > 0.5).to(x.dtype)\n"
     "        x = s * (1.0 - x) + (1.0 - s) * x\n"))}
