"""Correct but unusual: `pad_collate` builds the padded batch by hand (a `new_zeros` buffer of the first
sequence's dtype and device, filled row by row; the mask by comparing an arange with the lengths; labels through
`operator.index`), and `ShardedFileStream` splits records, not files, across workers: every worker reads every
file (one at a time, during iteration) and keeps the records whose running index over the whole pass is
`id mod num_workers`. Both are allowed by the text ("every `k`-th record (even, but every worker reads every
file)")."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {
    "collate_impl": edited(
        "15-02", "collate_impl",
        ("    seqs = [s for s, _ in batch]\n"
         "    lengths = torch.tensor([s.shape[0] for s in seqs], dtype=torch.int64)\n"
         "    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n"
         "    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]\n"
         "    labels = torch.tensor([int(y) for _, y in batch], dtype=torch.int64)\n",
         "    import operator\n"
         "    seqs = [s for s, _ in batch]\n"
         "    lengths = torch.empty(len(seqs), dtype=torch.int64)\n"
         "    for i, s in enumerate(seqs):\n"
         "        lengths[i] = s.shape[0]\n"
         "    T = max(s.shape[0] for s in seqs)\n"
         "    padded = seqs[0].new_zeros((len(seqs), T) + tuple(seqs[0].shape[1:]))\n"
         "    for i, s in enumerate(seqs):\n"
         "        padded[i, :s.shape[0]] = s\n"
         "    mask = lengths.unsqueeze(1) > torch.arange(T, dtype=torch.int64).unsqueeze(0)\n"
         "    labels = torch.tensor([operator.index(y) for _, y in batch], dtype=torch.int64)\n")),
    "stream_impl": edited(
        "15-02", "stream_impl",
        ("        for path in self.paths[wid::nw]:\n"
         "            shard = torch.load(path)\n"
         "            for x, y in zip(shard[\"x\"], shard[\"y\"]):\n"
         "                yield x, int(y)\n",
         "        k = 0\n"
         "        for path in self.paths:\n"
         "            shard = torch.load(path)\n"
         "            xs, ys = shard[\"x\"], shard[\"y\"].tolist()\n"
         "            for j in range(len(ys)):\n"
         "                if k % nw == wid:\n"
         "                    yield xs[j], ys[j]\n"
         "                k += 1\n")),
}
