"""Unidirectional RNNs run unpacked (causal, so real steps are right) and the padding of the output is
cleared by multiplying with the mask: NaN or inf stored in the padded positions of padded turns the
output's padding into NaN ("whatever is stored in the padded positions must not change either result")."""
from course.grading.class_run.submissions import edited

EXPECT = {"packed_rnn": "fail"}
CELLS = {"packed_rnn_impl": edited("15-02", "packed_rnn_impl", (
    "    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)\n",
    '''    if not rnn.bidirectional:
        out = rnn(padded)[0]
        mask = (torch.arange(padded.shape[1])[None, :] < lengths[:, None]).to(out.device)
        output = out * mask[..., None].to(out.dtype)
        last = out[torch.arange(out.shape[0], device=out.device), (lengths - 1).to(out.device)]
        return output, last
    packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
'''))}
