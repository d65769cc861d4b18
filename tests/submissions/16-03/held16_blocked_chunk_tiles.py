"""Known-wrong blocked_attention (round 16): splits the keys into ceil(S / block_size) tiles with
torch.chunk, whose tiles are ceil(S / n) long: S = 9 with block_size 4 gives tiles of 3, 3, 3 instead of
4, 4, 1 (the text: consecutive tiles of block_size positions, only the last may be shorter)."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited("16-03", "blocked_impl",
    ("    for start in range(0, S, block_size):\n        stop = min(start + block_size, S)\n"
     "        s = (q @ k[..., start:stop, :].transpose(-2, -1)) * scale\n",
     "    n_tiles = math.ceil(S / block_size)\n    start = 0\n"
     "    for k_t, v_t in zip(k.chunk(n_tiles, dim=-2), v.chunk(n_tiles, dim=-2)):\n"
     "        stop = start + k_t.shape[-2]\n"
     "        s = (q @ k_t.transpose(-2, -1)) * scale\n"),
    ("        acc = c * acc + p @ v[..., start:stop, :]\n        m = m_new\n",
     "        acc = c * acc + p @ v_t\n        m = m_new\n        start = stop\n"))}
EXPECT = {"blocked": "fail"}
