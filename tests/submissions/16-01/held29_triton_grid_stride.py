"""Round 29 (held out): the kernel is written grid-stride: program i handles block i, then block i + G, i + 2G, ...
(G = tl.num_programs(0)) while it stays below n. With the launcher's full grid each program handles exactly its
block, so launch_gelu_dropout is right; launched on a shorter grid, program 0 also writes the later blocks. Breaks
"program i handles the elements i * BLOCK to i * BLOCK + BLOCK - 1": gelu_dropout_kernel[(1,)] on n = 3 * BLOCK
writes all 3 blocks of out instead of only the first."""
from course.grading.class_run.submissions import edited

EXPECT = {"clip_op": "pass", "clip_grad": "pass", "ema": "pass", "fused": "pass", "triton": "fail"}
CELLS = {"triton_impl": edited("16-01", "triton_impl", (
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    inside = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=inside, other=0.0)\n"
    "    keep = tl.load(keep_ptr + offs, mask=inside, other=0)\n"
    "    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)\n"
    "    t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)\n"
    "    y = 0.5 * x * (1.0 + t)\n"
    "    tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n",
    "    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):  # grid-stride\n"
    "        offs = start + tl.arange(0, BLOCK)\n"
    "        inside = offs < n\n"
    "        x = tl.load(x_ptr + offs, mask=inside, other=0.0)\n"
    "        keep = tl.load(keep_ptr + offs, mask=inside, other=0)\n"
    "        u = 0.7978845608028654 * (x + 0.044715 * x * x * x)\n"
    "        t = 2.0 / (1.0 + tl.exp(-2.0 * u)) - 1.0  # tanh(u)\n"
    "        y = 0.5 * x * (1.0 + t)\n"
    "        tl.store(out_ptr + offs, tl.where(keep != 0, y * scale, 0.0), mask=inside)\n"))}
