"""Correct, written another way: `last` is read from the padded output instead of `h_n`: the forward half at
each sequence's own last real step, the backward half at step 0 (the backward direction's state after it has
read back to the start). The top layer's output is its hidden state (projected for an LSTM with proj_size, as
h_n is), so this is the same tensor."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "pass"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    out, h = rnn(packed)\n"
     "    if isinstance(h, tuple):  # LSTM: (h_n, c_n)\n"
     "        h = h[0]\n",
     "    out, _ = rnn(packed)\n"),
    ("    last = torch.cat([h[-d + k] for k in range(d)], dim=-1)\n",
     "    width = output.shape[2] // d\n"
     "    rows = torch.arange(output.shape[0], device=output.device)\n"
     "    fwd = output[rows, (lengths - 1).to(output.device), :width]\n"
     "    last = fwd if d == 1 else torch.cat([fwd, output[:, 0, width:]], dim=-1)\n"))}
