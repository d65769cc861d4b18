"""Wrong: "`output` ... equal to the RNN's output for each sequence run **alone**" (and `last` likewise). This
version reads "whatever is stored in the padded positions (any values, NaN and inf included) must not change
either result" as "sanitize the input": it runs `torch.nan_to_num(padded, nan=0, posinf=0, neginf=0)` over the
whole batch before packing, so a NaN or an inf at a *real* step becomes 0 and the results are no longer those
of the sequence run alone (where the NaN/inf propagates)."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)\n",
     "    padded = torch.nan_to_num(padded, nan=0.0, posinf=0.0, neginf=0.0)  # garbage in the padding\n"
     "    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)\n"))}
