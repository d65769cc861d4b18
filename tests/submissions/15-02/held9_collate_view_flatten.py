"""Held-out round 9: pad_collate flattens each sequence's trailing dimensions with .view, which raises for a
sequence that is a non-contiguous view with two or more trailing dimensions (for example a clip stored
(C, L, F) and permuted to (L, C, F) in __getitem__).
The text: "each sequence a tensor of shape (L_i, *) (any trailing shape, any dtype)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    flat = [s.view(s.shape[0], -1) for s in seqs]\n"
     "    padded = pad_sequence(flat, batch_first=True, padding_value=0)\n"
     "    padded = padded.view(padded.shape[0], padded.shape[1], *seqs[0].shape[1:])\n"))}
