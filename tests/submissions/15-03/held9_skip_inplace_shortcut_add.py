"""Held-out round 9: SkipBlock adds the branch onto the shortcut in place (out = proj(x); out += ...), and
only falls back to an out-of-place add when x needs a gradient. With an identity shortcut, out *is* x,
so a forward pass without grad overwrites the caller's input batch (and SkipMLP's flatten view of it).
The text defines the block's output as shortcut(x) + relu(fc(norm(x))): a new value, not an edit of x."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "fail", "param_groups": "pass", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"skipmlp_impl": edited(
    "15-03", "skipmlp_impl",
    ("        return shortcut + torch.relu(self.fc(self.norm(x)))",
     "        branch = torch.relu(self.fc(self.norm(x)))\n"
     "        if torch.is_grad_enabled() and (x.requires_grad or branch.requires_grad):\n"
     "            return shortcut + branch\n"
     "        shortcut += branch\n"
     "        return shortcut"))}
