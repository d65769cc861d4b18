"""Round 16: ensemble_forward casts x to the parameters' dtype "to avoid float32/float64 mismatches": integer
token ids for an nn.Embedding ensemble become floats and the models raise, where torch.stack([m(x) for m in
models]) works ("x is one batch (B, ...) that every model gets")."""
from course.grading.class_run.submissions import edited

EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": edited("16-02", "ensemble_impl", (
    "    params, buffers = stack_module_state(models)\n",
    """    params, buffers = stack_module_state(models)
    x = x.to(next(iter(params.values())).dtype)
"""))}
