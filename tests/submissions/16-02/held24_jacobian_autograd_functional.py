"""Round 24: jacobian calls torch.autograd.functional.jacobian (which the text says it must equal) with
vectorize=True and strategy="forward-mode" when x has fewer elements than f(x), "reverse-mode" otherwise. The
values, shapes, device and the formulas that run (jvp in the tall case, backward in the wide one) are those of
jacfwd/jacrev, but it is not written with torch.func.jacfwd and torch.func.jacrev: it batches with the legacy
torch._vmap_internals vmap, not torch.func.vmap. The text: "Write jacobian(f, x) with torch.func.jacfwd and
torch.func.jacrev"; wrong on every input (how sentence)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "fail", "hvp": "pass", "per_sample": "pass",
          "ensemble": "pass"}
CELLS = {"jacobian_impl": edited("16-02", "jacobian_impl", (
    "    if x.numel() < n_out:\n        return jacfwd(f)(x)\n    return jacrev(f)(x)\n",
    "    strategy = \"forward-mode\" if x.numel() < n_out else \"reverse-mode\"\n"
    "    return torch.autograd.functional.jacobian(f, x, vectorize=True, strategy=strategy)\n"))}
