"""Held-out round 9: a dropped block still runs its branch and multiplies it by 0, so its parameters get
zero gradients instead of none (AdamW then still decays them) and a non-finite branch turns the output
into NaN (0 * inf). The text says a dropped block uses only its shortcut and skips the branch; autograd
records only what actually ran."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"skipmlp_impl": edited(
    "15-03", "skipmlp_impl",
    ("        if skip_branch:\n            return shortcut\n"
     "        return shortcut + torch.relu(self.fc(self.norm(x)))",
     "        keep = 0.0 if skip_branch else 1.0\n"
     "        return shortcut + keep * torch.relu(self.fc(self.norm(x)))"))}
