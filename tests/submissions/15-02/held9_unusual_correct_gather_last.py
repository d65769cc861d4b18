"""Held-out round 9, a correct answer written unusually: `last` is not taken from h_n but gathered from the
padded output, the forward half at each sequence's step L_i - 1 and the backward half at step 0 (where the
backward direction has read the whole sequence back). For the top layer that is exactly h_n (for an LSTM,
h including any projection), so the task's text is met."""

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    lengths = torch.as_tensor(lengths).to("cpu", torch.int64)
    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
    output, _ = pad_packed_sequence(rnn(packed)[0], batch_first=True, total_length=padded.shape[1])
    rows = torch.arange(output.shape[0], device=output.device)
    end = (lengths - 1).to(output.device)
    feat = output.shape[-1] // (2 if rnn.bidirectional else 1)
    forward = output[rows, end, :feat]
    if not rnn.bidirectional:
        return output, forward
    return output, torch.cat([forward, output[:, 0, feat:]], dim=-1)
'''}
