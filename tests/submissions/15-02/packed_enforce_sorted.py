"""Known wrong: pack_padded_sequence with the default enforce_sorted=True on unsorted lengths (raises)."""
EXPECT = {"packed_rnn": "zero"}

CELLS = {
    "packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    packed = pack_padded_sequence(padded, lengths, batch_first=True)
    out, h = rnn(packed)
    if isinstance(h, tuple):
        h = h[0]
    out, _ = pad_packed_sequence(out, batch_first=True, total_length=padded.shape[1])
    d = 2 if rnn.bidirectional else 1
    return out, torch.cat([h[-d + k] for k in range(d)], dim=-1)
''',
}
