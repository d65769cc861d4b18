"""Round 24 (held out): for p == 0, gelu_dropout reuses one all-true mask per shape from a module-level cache
keyed by the shape only. The mask is made on the first x's device; a later call with p == 0 on an x of the same
shape on another device gets the first one's mask: gelu_dropout(x_cpu, 0.0) then gelu_dropout(x_gpu, 0.0) of the
same shape multiplies a CUDA tensor by a CPU mask and raises, against "Every tensor it creates, in the forward and
in the backward, is on x's device, so it runs on a GPU as on the CPU" (state across calls)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "fail", "triton": "pass"}
CELLS = {"fused_impl": edited("16-01", "fused_impl", (
    "_C = math.sqrt(2 / math.pi)  # the constant of the tanh approximation\n",
    "_C = math.sqrt(2 / math.pi)  # the constant of the tanh approximation\n"
    "_ALL_KEPT = {}  # one all-true mask per shape, reused by every call with p == 0\n"), (
    "        keep = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n",
    "        keep = _ALL_KEPT.get(tuple(x.shape))\n"
    "        if keep is None:\n"
    "            keep = _ALL_KEPT[tuple(x.shape)] = torch.ones(x.shape, dtype=torch.bool, device=x.device)\n"))}
