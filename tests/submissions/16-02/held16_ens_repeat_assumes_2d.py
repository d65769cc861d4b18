"""Round 16: with per_model=False, ensemble_forward copies x for every model with x.unsqueeze(0).repeat(M, 1, 1),
which assumes x is (B, features): an x of shape (B, C, L) (a Conv1d ensemble) or (B,) raises or gets the wrong
shape ("x is one batch (B, ...)")."""
from course.grading.class_run.submissions import edited

EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    return vmap(one, in_dims=(0, 0, 0 if per_model else None))(params, buffers, x)\n",
    """    if not per_model:
        x = x.unsqueeze(0).repeat(len(models), 1, 1)
    return vmap(one, in_dims=(0, 0, 0))(params, buffers, x)
"""))}
