"""Known-wrong SiLU (red team 21's custom-op box, closed after the pass): the forward hides F.silu inside an
operator of the submission's own registry (torch.library.custom_op), so a probe's op log is shown "mine::silu"
and never PyTorch's silu; backward and jvp keep their own formulas. The text forbids calling F.silu inside SiLU
and names an operator of one's own registry as failing that clause."""
from course.grading.class_run.submissions import edited


CELLS = {"silu_impl": edited(
    "16-02", "silu_impl",
    ("class SiLU(torch.autograd.Function):\n",
     "@torch.library.custom_op(\"mine::silu\", mutates_args=())\n"
     "def _silu(x: torch.Tensor) -> torch.Tensor:\n"
     "    return F.silu(x)\n\n\n"
     "@_silu.register_fake\n"
     "def _(x):\n"
     "    return torch.empty_like(x)\n\n\n"
     "class SiLU(torch.autograd.Function):\n"),
    ("        return x * torch.sigmoid(x)\n", "        return _silu(x)\n"))}
EXPECT = {"silu": "fail"}
