"""Known wrong: gathers the output at L-1 (right only for one direction) and forgets total_length."""
EXPECT = {"packed_rnn": "fail"}

CELLS = {
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    lengths = torch.as_tensor(lengths)
    out, _ = rnn(padded)
    mask = torch.arange(padded.shape[1])[None, :] < lengths[:, None]
    out = out * mask[..., None]
    last = out[torch.arange(len(lengths)), lengths - 1]
    return out[:, :int(lengths.max())], last
''',
}
