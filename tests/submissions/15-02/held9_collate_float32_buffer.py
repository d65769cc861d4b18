"""Held-out round 9: pad_collate fills a default-dtype (float32) buffer and only casts it to the sequences'
dtype at the end, so float64 values are rounded to float32 and int64 token ids above 2**24 change. The text:
"any dtype; the padded tensor keeps that dtype" (and keeps the values: padded[i, :L_i] is sequence i)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    buf = torch.zeros(len(seqs), int(lengths.max()), *seqs[0].shape[1:], device=seqs[0].device)\n"
     "    for i, s in enumerate(seqs):\n"
     "        buf[i, :s.shape[0]] = s\n"
     "    padded = buf.to(seqs[0].dtype)\n"))}
