"""Held-out round 9: run_packed_rnn packs correctly but first zeroes the padded positions of the caller's
`padded` in place, "so that padding cannot matter", which destroys the caller's tensor. The text asks for
(output, last) from `padded`; "whatever is stored in the padded positions of padded must not change either
result" is about the results, not a licence to overwrite the input."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    packed = pack_padded_sequence(",
     "    with torch.no_grad():\n"
     "        padded[torch.arange(padded.shape[1])[None, :] >= lengths[:, None]] = 0\n"
     "    packed = pack_padded_sequence("))}
