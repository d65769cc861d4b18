"""The reduce-scattered gradient is never divided by W (AdamW's near scale invariance hides it except
through eps). Breaks: "**reduce-scatter** the flat, padded gradient of layer i's parameters, divide it by W"."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_blind4.py")))["edit"]
EXPECT = {"zero3": "fail"}
CELLS = {"zero3_impl": edit("zero3_impl", ("        g_shard /= world\n", ""))}
