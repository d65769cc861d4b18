"""Held-out gap-hunting round 5 (issue 39): breaks "afterwards every parameter's .grad holds what it held
before the call plus the gradient ... as a single full-batch backward() would". torch.autograd.grad is called
without allow_unused, so a model with a trainable parameter that its forward never uses (an unused head)
makes accumulate_grads raise, where backward() simply leaves that parameter's .grad as it was."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"accumulate": "fail"}
CELLS = {"accumulate_impl": edit("accumulate_impl", (
    "torch.autograd.grad(part_loss * share, trainable, allow_unused=True)",
    "torch.autograd.grad(part_loss * share, trainable)"))}
