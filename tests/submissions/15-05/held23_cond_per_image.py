"""Held-out round 23: CondBranchyNet decides per image (torch.where on each image's mean, branch-free and exportable)
instead of on the batch: on a batch that mixes dark and bright images whose batch mean is below 0.5, it inverts the
bright images that BranchyNet leaves as they are (and on a bright batch it leaves its dark images uninverted).
Exercise 2's text: "invert the batch when its mean pixel value is above 0.5"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited(
    "15-05", "cond_net_impl",
    ("        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n",
     "        per_image = x.flatten(1).mean(1).reshape((-1,) + (1,) * (x.dim() - 1))\n"
     "        x = torch.where(per_image > 0.5, 1.0 - x, x)\n"))}
