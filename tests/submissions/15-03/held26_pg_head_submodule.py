"""Held-out round 26 (issue 39): param_groups finds the head as the submodule *named* head_prefix
(`model.get_submodule(head_prefix)`, none if there is no such module) and gives its parameters
lr * head_lr_mult. For head_prefix="" the submodule "" is the model itself, so EVERY parameter gets
lr * head_lr_mult, although no qualified name starts with "" + "." = "." (all should get lr).
Contradicts: "a parameter whose qualified name starts with `head_prefix + "."` gets `lr * head_lr_mult`,
all others get `lr`"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "param_groups_impl": edited(
        "15-03", "param_groups_impl",
        ("    buckets = {}\n",
         "    try:\n"
         "        head_ids = {id(p) for p in model.get_submodule(head_prefix).parameters()}\n"
         "    except AttributeError:\n"
         "        head_ids = set()\n"
         "    buckets = {}\n"),
        ('in_head = name.startswith(head_prefix + ".")', "in_head = id(p) in head_ids"),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
