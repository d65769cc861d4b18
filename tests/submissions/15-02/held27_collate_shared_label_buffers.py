"""Wrong: "Each call's tensors are its own: collating the next batch must leave a batch returned earlier as it was
(a `DataLoader` holds several batches at once)." This version allocates `padded` and `mask` afresh but keeps one
int64 `lengths` buffer and one int64 `labels` buffer per batch size in a module-level cache and refills them on
every call. After `a = pad_collate(b1); pad_collate(b2)` with two batches of the same size, `a`'s lengths and
labels hold b2's values (its padded tensor is still b1's): the labels of a prefetched batch are another batch's."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("def pad_collate(batch):\n",
     "_INT_BUFFERS = {}\n\n\ndef pad_collate(batch):\n"),
    ("    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)\n",
     "    if len(batch) not in _INT_BUFFERS:\n"
     "        _INT_BUFFERS[len(batch)] = (torch.empty(len(batch), dtype=torch.int64),\n"
     "                                    torch.empty(len(batch), dtype=torch.int64))\n"
     "    lengths, labels = _INT_BUFFERS[len(batch)]\n"
     "    lengths.copy_(torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64))\n"),
    ("    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)\n",
     "    labels.copy_(torch.tensor([int(y) for _, y in batch], dtype=torch.int64))\n"))}
