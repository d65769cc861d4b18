r"""Held-out round 26 (issue 39): param_groups tests the head with a regular expression built from
head_prefix without escaping it: `re.match(head_prefix + r"\.", name)`. For a dotted head_prefix such as
"enc.head" the "." matches any character, so a sibling module "enc_head" (names "enc_head.weight", ...)
also gets lr * head_lr_mult. Contradicts: "a parameter whose qualified name starts with
`head_prefix + "."` gets `lr * head_lr_mult`, all others get `lr`"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "param_groups_impl": edited(
        "15-03", "param_groups_impl",
        ('in_head = name.startswith(head_prefix + ".")',
         'import re\n        in_head = re.match(head_prefix + r"\\.", name) is not None'),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "fail", "convert": "pass", "lazy": "pass", "trace": "pass"}
