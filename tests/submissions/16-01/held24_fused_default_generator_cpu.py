"""Round 24 (held out): without a generator, gelu_dropout draws from torch.default_generator, named explicitly
(generator = torch.default_generator when None). That is PyTorch's default generator for the CPU only: for x on a
GPU, torch.rand(x.shape, generator=<CPU generator>, device='cuda') raises ("Expected a 'cuda' device type for
generator"), against "draws u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)" with
generator=None (the default generator of x's device) and "so it runs on a GPU as on the CPU". Right on the CPU,
and on the meta device a CPU generator is accepted."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n",
    "        if generator is None:\n"
    "            generator = torch.default_generator\n"
    "        u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)\n"))}
