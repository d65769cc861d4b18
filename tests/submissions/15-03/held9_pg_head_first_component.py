"""Held-out round 9: the head test compares the first component of the name with head_prefix
(name.split(".")[0] == head_prefix), which agrees for "head" but never matches a dotted prefix such as
"classifier.4" (OldNet's last layer). The text says a parameter whose qualified name starts with
head_prefix + "." gets lr * head_lr_mult."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
CELLS = {"param_groups_impl": edited(
    "15-03", "param_groups_impl",
    ('in_head = name.startswith(head_prefix + ".")', 'in_head = name.split(".")[0] == head_prefix'))}
