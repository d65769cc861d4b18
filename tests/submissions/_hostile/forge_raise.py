"""Replaces the grader worker's reply loop and answers every check without running anything:
each call raises ValueError, as if the input had been rejected."""
import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).with_name("_forge.py")))["spec"]("raise"))
