"""Known-wrong MultiHeadAttention (round 16, contract walk): with batch_first=False it reads a per-head
(N * H, L, S) attn_mask as heads outermost (entry h * N + b), the order a sequence-first layout suggests;
nn.MultiheadAttention uses b * H + h in both layouts. The per-head masks were checked batch first only."""
from course.grading.class_run.submissions import edited

CELLS = {"mha_impl": edited("16-03", "mha_impl",
    ("            m = attn_mask if attn_mask.dim() == 2 else attn_mask.reshape(n, h, L, S)\n",
     "            m = attn_mask if attn_mask.dim() == 2 else (\n"
     "                attn_mask.reshape(n, h, L, S) if self.batch_first  # sequence first: heads outermost\n"
     "                else attn_mask.reshape(h, n, L, S).transpose(0, 1))\n"))}
EXPECT = {"mha": "fail"}
