"""Held-out round 26, second pass (issue 39): param_groups also counts a parameter whose qualified name IS
head_prefix as part of the head (`name == head_prefix or name.startswith(head_prefix + ".")`, "a head that is a
bare parameter"). For head_prefix="head2.weight" (a qualified name equal to the prefix; no name starts with
"head2.weight.") that parameter gets lr * head_lr_mult instead of lr. Contradicts: "a parameter whose qualified
name starts with `head_prefix + "."` gets `lr * head_lr_mult`, all others get `lr`"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "param_groups_impl": edited(
        "15-03", "param_groups_impl",
        ('in_head = name.startswith(head_prefix + ".")',
         'in_head = name == head_prefix or name.startswith(head_prefix + ".")'),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
