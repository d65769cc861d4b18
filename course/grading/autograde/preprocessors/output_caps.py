"""``CapOutputSize``: the executed notebook's outputs measured as they will be written, and cut to
the limits per cell and per notebook.

``OutputBudget`` counts the kernel's messages; what is written weighs more: nbformat puts every line
of a text on a line of its own (indented), and the feedback page escapes ``<>&"'`` and turns ANSI
colour codes into HTML. The cost of a cell's outputs counts both. A cell over the per-cell limit,
and then the costliest cells until the notebook fits, keep a one-line note instead, plus a short
copy of their errors (an error in a test cell decides its score).
"""
from __future__ import annotations

import json

from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer

from .output_budget import trimmed_error

LINE_COST = 12  # quotes, comma, newline and indentation of one line in the .ipynb file
OUTPUT_COST = 200  # an output's keys and brackets, indented, in the file, and its <div>s in the page
HTML_COST = 5  # extra bytes of an escaped <, >, &, " or ' in the page
ANSI_COST = 30  # extra bytes of one ANSI escape turned into a <span>


def _texts(output):
    for key in ("text", "evalue"):
        if isinstance(output.get(key), str):
            yield output[key]
    for value in output.get("traceback") or []:
        if isinstance(value, str):
            yield value
    for value in (output.get("data") or {}).values():
        if isinstance(value, str):
            yield value


def output_cost(outputs) -> int:
    """Bytes the outputs take in the .ipynb file and in the feedback page, a little over either."""
    try:
        n = len(json.dumps(outputs, ensure_ascii=False).encode())
    except (TypeError, ValueError, RecursionError):
        return 2**62
    for o in outputs:
        n += OUTPUT_COST
        for text in _texts(o):
            n += LINE_COST * len(text.splitlines())
            n += HTML_COST * sum(text.count(ch) for ch in "<>&\"'") + ANSI_COST * text.count("\x1b")
    return n


class CapOutputSize(NbGraderPreprocessor):
    max_output_bytes = Integer(2_000_000, help="output kept per cell, as written").tag(config=True)
    max_total_output_bytes = Integer(8_000_000, help="output kept per notebook, as written").tag(config=True)

    def preprocess(self, nb, resources):
        cost = {i: output_cost(c.outputs) for i, c in enumerate(nb.cells)
                if c.get("cell_type") == "code" and c.get("outputs")}
        for i, n in cost.items():
            if n > self.max_output_bytes:
                cost[i] = self._replace(nb.cells[i], n, f"{self.max_output_bytes} bytes per cell")
        total = sum(cost.values())
        for i in sorted(cost, key=cost.get, reverse=True):
            if total <= self.max_total_output_bytes:
                break
            total += self._replace(nb.cells[i], cost[i], f"{self.max_total_output_bytes} bytes per notebook") - cost[i]
        return nb, resources

    def _replace(self, cell, n: int, limit: str) -> int:
        note = new_output("stream", name="stdout",
                          text=f"[output removed: about {n} bytes once written, over the limit of {limit}]\n")
        errors = [new_output("error", **trimmed_error(o.get("ename", ""), o.get("evalue", ""), o.get("traceback")))
                  for o in cell.outputs if o.get("output_type") == "error"][:1]
        cell.outputs = [note, *errors]
        return output_cost(cell.outputs)
