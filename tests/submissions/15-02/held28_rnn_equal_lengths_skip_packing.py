"""Wrong: "`output`: shape `(B, T, D*H)` where `T = padded.shape[1]` (keep the input's time dimension even when it
is longer than the longest sequence) ... exactly zero at padded positions" and "`last` ... for each sequence run
alone". This version skips packing when every sequence has the same length ("nothing to pack"), and runs the RNN
on the whole padded tensor. That is only right when that length is also `T`: for a batch whose sequences all
end before `T` (a batch of one with trailing padding, e.g. `lengths=[2]` with `padded.shape[1] == 4`) the RNN runs
over the padding, so `output[:, 2:]` is not zero and `last` is the state after 4 steps (NaN padding makes both NaN)."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)\n"
     "    out, h = rnn(packed)\n"
     "    if isinstance(h, tuple):  # LSTM: (h_n, c_n)\n"
     "        h = h[0]\n"
     "    output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])\n",
     "    if bool((lengths == lengths[0]).all()):\n"
     "        output, h = rnn(padded)\n"
     "        if isinstance(h, tuple):\n"
     "            h = h[0]\n"
     "    else:\n"
     "        packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)\n"
     "        out, h = rnn(packed)\n"
     "        if isinstance(h, tuple):  # LSTM: (h_n, c_n)\n"
     "            h = h[0]\n"
     "        output, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])\n"))}
