"""cond_net: the torch.cond predicate reads the first image's mean (x[0].mean()) instead of the batch's, so a
batch of one bright image and several dark ones is inverted although its mean is below 0.5. Breaks 'invert the
batch when its mean pixel value is above 0.5'."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", ("torch.cond(x.mean() > 0.5", "torch.cond(x[0].mean() > 0.5"))}
