"""Wrong: "Implement `run_packed_rnn(rnn, padded, lengths)` for any `nn.RNN`, `nn.GRU` or `nn.LSTM`". This
version passes an explicit zero initial state, as many tutorials do, built on `padded.device` but without
`dtype=`: it is float32 whatever the RNN's dtype, so an RNN in float64 (`nn.GRU(...).double()`, a double
`padded`) raises a dtype mismatch instead of returning its outputs."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited(
    "15-02", "packed_rnn_impl",
    ("    out, h = rnn(packed)\n",
     "    nd = 2 if rnn.bidirectional else 1\n"
     "    h_size = rnn.proj_size if getattr(rnn, \"proj_size\", 0) else rnn.hidden_size\n"
     "    h0 = torch.zeros(rnn.num_layers * nd, padded.shape[0], h_size, device=padded.device)\n"
     "    if isinstance(rnn, torch.nn.LSTM):\n"
     "        h0 = (h0, torch.zeros(rnn.num_layers * nd, padded.shape[0], rnn.hidden_size, device=padded.device))\n"
     "    out, h = rnn(packed, h0)\n"))}
