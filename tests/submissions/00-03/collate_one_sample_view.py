"""Returns sample.unsqueeze(0) for a batch of one (nothing to pad): a view of the sample, not a new tensor."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("collate")
CELLS = {"collate_impl": '''def pad_collate(samples, padding_value=0.0):
    if not samples:
        raise ValueError("empty batch")
    seqs = [s for s, _ in samples]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.int64)
    labels = torch.tensor([int(y) for _, y in samples], dtype=torch.int64)
    if len(seqs) == 1:
        inputs = seqs[0].unsqueeze(0)
    else:
        inputs = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=padding_value)
    mask = torch.arange(inputs.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
    return {"inputs": inputs, "lengths": lengths, "mask": mask, "labels": labels}
'''}
