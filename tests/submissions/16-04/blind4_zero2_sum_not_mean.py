"""The reduce-scattered shard is the sum over the ranks and is used as it is (the text says "summed" and
the writer stopped there). Breaks: "the same result as `zero1_step`: after every call of a run of several
steps, every rank's `params` equal single-process `torch.optim.AdamW` on the mean gradient"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero2": "fail"}
CELLS = {"zero2_impl": edit("zero2_impl", ("    g_shard /= world\n", ""))}
