"""Held-out round 9: run_packed_rnn runs every sequence alone in a loop (a valid method) but collects the
results in torch.zeros buffers of the default dtype, so a float64 RNN returns float32 output and last,
rounded. The text: output and last are "equal to the RNN's output for each sequence run alone"."""

EXPECT = {"bucket_sampler": "pass", "balanced": "pass", "collate": "pass", "packed_rnn": "fail", "stream": "pass"}
CELLS = {"packed_rnn_impl": '''
def run_packed_rnn(rnn, padded, lengths):
    """Run a batch_first RNN/GRU/LSTM on a padded batch as if each sequence were alone; -> (output, last)."""
    d = 2 if rnn.bidirectional else 1
    lengths = [int(n) for n in lengths]
    outs, lasts = [], []
    for i, n in enumerate(lengths):
        o, h = rnn(padded[i:i + 1, :n])
        if isinstance(h, tuple):
            h = h[0]
        outs.append(o[0])
        lasts.append(torch.cat([h[-d + k, 0] for k in range(d)]))
    feat = outs[0].shape[-1]
    output = torch.zeros(len(lengths), padded.shape[1], feat, device=padded.device)
    last = torch.zeros(len(lengths), feat, device=padded.device)
    for i, n in enumerate(lengths):
        output[i, :n] = outs[i]
        last[i] = lasts[i]
    return output, last
'''}
