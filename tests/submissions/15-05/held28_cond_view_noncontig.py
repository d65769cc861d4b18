"""Held-out round 28: CondBranchyNet flattens with `x.view(x.size(0), -1)` instead of `x.flatten(1)`. Exercise 2:
"computes exactly what BranchyNet computes ... on every batch BranchyNet takes". `view` needs compatible strides:
wrong on a non-contiguous batch, e.g. `torch.rand(3, 1, 28, 28).transpose(2, 3)` (images transposed by a data
pipeline), whose mean is below one half (the false branch clones it, keeping its strides): `view` raises a
RuntimeError where BranchyNet returns logits."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited(
    "15-05", "cond_net_impl",
    ("        return self.fc2(torch.relu(self.fc1(x.flatten(1))))\n",
     "        return self.fc2(torch.relu(self.fc1(x.view(x.size(0), -1))))\n"))}
