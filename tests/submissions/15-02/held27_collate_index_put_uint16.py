"""Wrong: "each sequence a tensor of shape `(L_i, *)` (any trailing shape, any dtype; the padded tensor keeps that
dtype and every value exactly)". This version fills a zero buffer with one advanced-index assignment
`padded[rows, cols] = torch.cat(seqs)` (rows/cols from the lengths). PyTorch has no index_put kernel for the
unsigned dtypes uint16, uint32 and uint64 (nor float8_e8m0fnu): a batch of uint16 sequences (16-bit audio
samples, token ids) raises RuntimeError "index_put not implemented for 'UInt16'", where pad_sequence pads it."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n"
     "    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]\n",
     "    B, T = len(seqs), int(lengths.max())\n"
     "    padded = seqs[0].new_zeros((B, T) + tuple(seqs[0].shape[1:]))\n"
     "    rows = torch.repeat_interleave(torch.arange(B), lengths)\n"
     "    cols = torch.cat([torch.arange(int(n)) for n in lengths])\n"
     "    padded[rows, cols] = torch.cat(seqs)\n"
     "    mask = torch.arange(T)[None, :] < lengths[:, None]\n"))}
