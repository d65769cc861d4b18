"""Gap-hunting round (issue 39, 2026-12-01): run_packed_rnn takes last from the padded output (forward half at each sequence's last step, backward half at step 0), splitting the features at rnn.hidden_size: wrong for an LSTM with proj_size, whose outputs have proj_size features per direction. Breaks: "any nn.RNN, nn.GRU or nn.LSTM"."""
from course.grading.class_run.submissions import edited

CELLS = {"packed_rnn_impl": edited("15-02", "packed_rnn_impl", ('    d = 2 if rnn.bidirectional else 1\n    last = torch.cat([h[-d + k] for k in range(d)], dim=-1)', '    d = 2 if rnn.bidirectional else 1\n    H = rnn.hidden_size\n    idx = (lengths - 1).clamp(min=0).to(output.device)\n    fwd = output[torch.arange(output.shape[0], device=output.device), idx, :H]\n    last = torch.cat([fwd, output[:, 0, H:2 * H]], dim=-1) if d == 2 else fwd'))}
EXPECT = {"packed_rnn": "fail"}
