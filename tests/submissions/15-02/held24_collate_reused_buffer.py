"""Wrong: "Implement `pad_collate(batch)` ... -> padded" with "`padded`: shape `(B, T, *)` ... zeros after each
sequence's end" and "the padded tensor keeps that dtype and every value exactly". This version keeps one padded
buffer per (B, T, trailing shape, dtype, device) in a module-level cache and refills it on the next call of the
same shape (to save allocations). A batch that is kept while the next one is collated (a DataLoader prefetching,
`list(loader)`, a batch kept for logging) is overwritten: after `a = pad_collate(b1); pad_collate(b2)` with b1 and
b2 of the same shape, `a[0]` holds b2's values, not b1's."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("def pad_collate(batch):\n",
     "_PAD_BUFFERS = {}\n\n\ndef pad_collate(batch):\n"),
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    T = int(lengths.max())\n"
     "    key = (len(seqs), T, tuple(seqs[0].shape[1:]), seqs[0].dtype, seqs[0].device)\n"
     "    padded = _PAD_BUFFERS.get(key)\n"
     "    if padded is None:\n"
     "        padded = _PAD_BUFFERS[key] = seqs[0].new_zeros((len(seqs), T) + tuple(seqs[0].shape[1:]))\n"
     "    else:\n"
     "        padded.zero_()\n"
     "    for i, s in enumerate(seqs):\n"
     "        padded[i, :s.shape[0]] = s\n"))}
