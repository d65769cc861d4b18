"""Held-out round 29: insert_observers avoids only the names of the traced module's SUBMODULES when it picks an
observer's name (`while name in dict(gm.named_children())`), not its other attributes. A model whose forward
reads a parameter or buffer called like an observer (the traced module copies it as an attribute of that
name) makes `add_submodule` raise `KeyError: "attribute '...' already exists"`. The task says "pick names the
traced module does not have yet" and "Any model will do". Goes wrong on: a module with `self.lin =
nn.Linear(3, 3)` and `self.observer_lin = nn.Parameter(torch.ones(3))`, forward `self.lin(x) *
self.observer_lin`, op_types (nn.Linear,): KeyError instead of a GraphModule."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "fail",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"insert_observers_impl": edited(
    "15-06", "insert_observers_impl",
    ("        while hasattr(gm, name):", "        while name in dict(gm.named_children()):"))}
