"""Splits with torch.tensor_split into exactly micro_batches pieces and runs the empty ones too (nan losses)."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))
EXPECT = _c["expect_only"]("accumulate")
CELLS = {"accumulate_impl": '''def accumulate_grads(model, loss_fn, batch, micro_batches):
    inputs, targets = batch
    n = inputs.shape[0]
    total = 0.0
    for xb, yb in zip(torch.tensor_split(inputs, micro_batches), torch.tensor_split(targets, micro_batches)):
        loss = loss_fn(model(xb), yb) * (xb.shape[0] / n)
        loss.backward()
        total += loss.item()
    return total
'''}
