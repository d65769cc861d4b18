"""Wrong: "each sequence a tensor of shape `(L_i, *)` (any trailing shape, any dtype; the padded tensor keeps that
dtype and every value exactly)". This version allocates a zero buffer of the right dtype on the sequences' device
and *adds* each sequence into its rows (`padded[i, :L] += s`). Every value comes back, NaN and inf included,
except the sign of a negative zero: `-0.0 + 0.0 == +0.0`, so a sequence holding `-0.0` (float or complex parts)
comes back with `+0.0` (e.g. `pad_collate([(torch.tensor([-0.0, 1.0]), 0)])[0]` has `copysign(1, x) == +1`);
`torch.equal` cannot see it."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "fail", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"collate_impl": edited(
    "15-02", "collate_impl",
    ("    padded = pad_sequence(seqs, batch_first=True, padding_value=0)\n",
     "    T = max(s.shape[0] for s in seqs)\n"
     "    padded = torch.zeros((len(seqs), T) + tuple(seqs[0].shape[1:]), dtype=seqs[0].dtype,\n"
     "                         device=seqs[0].device)\n"
     "    for i, s in enumerate(seqs):\n"
     "        padded[i, :s.shape[0]] += s\n"))}
