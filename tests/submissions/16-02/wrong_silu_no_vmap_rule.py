"""The class drops generate_vmap_rule: vmap, jacfwd and jacrev refuse the Function."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "fail"}
CELLS = {"silu_impl": edited("16-02", "silu_impl", ("    generate_vmap_rule = True\n", ""))}
