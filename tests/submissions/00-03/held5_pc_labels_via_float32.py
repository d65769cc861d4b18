"""Held-out gap-hunting round 5 (issue 39): breaks '"labels": an int64 tensor of shape (B,)' holding the labels.
They are built with torch.Tensor([...]).long(): torch.Tensor makes float32 first, so an integer label above
2**24 (a class id from a large vocabulary, a sample id) comes back rounded to a multiple of 2, 4, ...; small
labels are exact."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"collate": "fail"}
CELLS = {"collate_impl": edit("collate_impl", (
    "labels = torch.tensor([int(label) for _, label in samples], dtype=torch.int64)",
    "labels = torch.Tensor([int(label) for _, label in samples]).long()"))}
