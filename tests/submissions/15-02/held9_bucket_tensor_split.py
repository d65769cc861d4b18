"""Held-out round 9: the sorted indices are cut with torch.tensor_split into ceil(N / batch_size) near-equal
chunks, so with N = 10, batch_size = 4 the batches have sizes 4, 3, 3 (two short ones). The text: "cut the
sorted list into consecutive batches of batch_size; only the last chunk can be short"."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"bucket_sampler_impl": edited(
    "15-02", "bucket_sampler_impl",
    ("batches = [order[i:i + self.batch_size] for i in range(0, len(order), self.batch_size)]",
     "n_chunks = -(-len(order) // self.batch_size)\n"
     "        batches = [c.tolist() for c in torch.tensor(order, dtype=torch.int64).tensor_split(n_chunks)]"
     " if order else []"))}
