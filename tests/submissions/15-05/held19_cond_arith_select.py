"""Held-out round 19, a correct answer written in an unusual way: CondBranchyNet selects without any branch by
arithmetic, p = (x.mean() > 0.5) as x's dtype, then x * (1 - 2p) + p, which is exactly 1 - x when p is 1 (x * -1 is
exact, one rounding in the addition, as in 1.0 - x) and exactly x when p is 0. It must keep full marks."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited(
    "15-05", "cond_net_impl",
    ("        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n",
     "        p = (x.mean() > 0.5).to(x.dtype)  # 1 for a bright batch, 0 otherwise\n"
     "        x = x * (1.0 - 2.0 * p) + p         # 1 - x or x, with no branch at all\n"))}
