"""Gap-hunting round (issue 39, 2026-12-01): run_packed_rnn builds an explicit zero initial state with the dtype and device of rnn.bias_ih_l0, which does not exist for an RNN built with bias=False. Breaks: "any nn.RNN, nn.GRU or nn.LSTM"."""
from course.grading.class_run.submissions import edited

CELLS = {"packed_rnn_impl": edited("15-02", "packed_rnn_impl", ('    out, h = rnn(packed)', '    d0 = (2 if rnn.bidirectional else 1) * rnn.num_layers\n    ref = rnn.bias_ih_l0\n    h0 = torch.zeros(d0, padded.shape[0], rnn.hidden_size, dtype=ref.dtype, device=ref.device)\n    out, h = rnn(packed, (h0, h0.clone()) if isinstance(rnn, torch.nn.LSTM) else h0)'))}
EXPECT = {"packed_rnn": "fail"}
