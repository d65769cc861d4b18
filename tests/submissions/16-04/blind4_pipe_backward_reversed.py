"""Both ranks run the backwards last micro-batch first (as many GPipe write-ups draw it); the gradients
still add up to the right sum. Breaks: "then receives the M activation gradients in the order 0, 1, ...,
M-1" and "sends the gradient ... to rank 0, in the order 0, 1, ..., M-1"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"pipeline": "fail"}
CELLS = {"pipeline_impl": edit("pipeline_impl",
                               ("for out in outs:", "for out in reversed(outs):"),
                               ("for act, loss in pending:", "for act, loss in reversed(pending):"))}
