# Two passes over the tiles: the first finds each query's largest score, the second sums exp(s - max)
# and the weighted values with that fixed maximum. Same values, no tile larger than the reference's, but
# it is not the online softmax (no running maximum, no rescale) and reads every key tile twice
# ("reads the keys and values in consecutive tiles ... with the online softmax above").
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    "    for start in range(0, S, block_size):\n"
    "        stop = min(start + block_size, S)\n"
    "        s = (q @ k[..., start:stop, :].transpose(-2, -1)) * scale\n"
    "        if is_causal:\n"
    "            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))\n"
    "        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))\n"
    "        safe = torch.where(torch.isneginf(m_new), torch.zeros_like(m_new), m_new)\n"
    "        c = torch.exp(m - safe)\n"
    "        p = torch.exp(s - safe)\n"
    "        l = c * l + p.sum(dim=-1, keepdim=True)\n"
    "        acc = c * acc + p @ v[..., start:stop, :]\n"
    "        m = m_new\n",
    "    def tile(start):\n"
    "        stop = min(start + block_size, S)\n"
    "        s = (q @ k[..., start:stop, :].transpose(-2, -1)) * scale\n"
    "        if is_causal:\n"
    "            s = s.masked_fill(torch.arange(start, stop, device=q.device)[None, :] > rows, float(\"-inf\"))\n"
    "        return s, stop\n"
    "    for start in range(0, S, block_size):\n"
    "        m = torch.maximum(m, tile(start)[0].amax(dim=-1, keepdim=True))\n"
    "    for start in range(0, S, block_size):\n"
    "        s, stop = tile(start)\n"
    "        p = torch.exp(s - m)\n"
    "        l = l + p.sum(dim=-1, keepdim=True)\n"
    "        acc = acc + p @ v[..., start:stop, :]\n"))}
