"""Answers every check with a 1.5 kB reply that expands without end when read: a list that
contains itself, inside 40 levels of shared pairs (2**40 leaves if anything formatted it)."""
import runpy
from pathlib import Path

globals().update(runpy.run_path(str(Path(__file__).with_name("_forge.py")))["spec"]("bomb"))
