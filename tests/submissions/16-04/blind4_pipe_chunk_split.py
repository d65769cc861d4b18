"""Cuts the batch with torch.chunk instead of torch.tensor_split: other micro-batch sizes (7 rows in 3
give 3, 3, 1), and fewer than M pieces for some sizes (6 rows in 4 give 3), so fewer than M messages. Breaks:
"Cut `data` into M micro-batches with `torch.tensor_split(data, M)`" and "Each rank sends exactly M
messages"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edit("pipeline_impl",
                               ("for xm in torch.tensor_split(data, M):", "for xm in torch.chunk(data, M):"),
                               ("for ym in torch.tensor_split(data, M):", "for ym in torch.chunk(data, M):"))}
