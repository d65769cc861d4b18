"""Held-out gap-hunting round 5 (issue 39): breaks "every parameter's .grad holds what it held before the call
plus the gradient of loss_fn(model(inputs), targets) on the full batch ... as a single full-batch backward()
would". The parameter list is gathered module by module (parameters(recurse=False)), so a weight shared by
two modules (tied embeddings) is listed twice and its gradient is added twice; model.parameters() and
backward() count it once."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"accumulate": "fail"}
CELLS = {"accumulate_impl": edit("accumulate_impl", (
    "trainable = [p for p in model.parameters() if p.requires_grad]",
    "trainable = [p for m in model.modules() for p in m.parameters(recurse=False) if p.requires_grad]"))}
