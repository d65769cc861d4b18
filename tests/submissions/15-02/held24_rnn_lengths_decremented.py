"""Wrong: "`padded` and `lengths` belong to the caller: leave them as they were". This version takes the forward
direction's last state from `output` at step `lengths - 1` and the backward one from step 0 (equal to `h_n`'s top
layer), but gets the step index with `idx = torch.as_tensor(lengths); idx -= 1`. For a CPU int64 `lengths` tensor
(what `pad_collate` returns) `as_tensor` returns the caller's own tensor, so every call lowers the caller's lengths
by one (a second call with the same lengths then runs on shorter sequences)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    last = torch.cat([h[-d + k] for k in range(d)], dim=-1)\n",
     "    H = output.shape[-1] // d\n"
     "    idx = torch.as_tensor(lengths)\n"
     "    idx -= 1\n"
     "    rows = torch.arange(output.shape[0], device=output.device)\n"
     "    parts = [output[rows, idx.to(output.device), :H]]\n"
     "    if d == 2:\n"
     "        parts.append(output[:, 0, H:])\n"
     "    last = torch.cat(parts, dim=-1)\n"))}
