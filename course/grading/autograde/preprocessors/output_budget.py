"""``OutputBudget``: a mixin for nbclient's NotebookClient (nbgrader's Execute) that charges every
kernel message able to put bytes into the notebook to one budget, per cell and per notebook.

nbclient 0.11 adds to the notebook in three places: ``output`` (new outputs), ``_update_display_id``
(an update copied into every output sharing a display id, in any cell) and ``handle_comm_msg``
(widget state, written into the notebook's metadata at the end). Here outputs and display updates
are charged (an update once per output it would be copied into) and refused once a limit is
passed, with one note in the cell; comm messages are dropped, so no widget state is kept and no
widget is mimicked. Messages of other types, or with missing or mistyped fields, are dropped
instead of being logged or raising, and a prompt number must be an integer.
"""
from __future__ import annotations

import json

from nbformat.v4 import new_output
from traitlets import HasTraits, Integer

OUTPUT_TYPES = {"stream": {"name": str, "text": str}, "display_data": {"data": dict, "metadata": dict},
                "execute_result": {"data": dict, "metadata": dict},
                "error": {"ename": str, "evalue": str, "traceback": list}}


def message_bytes(content) -> int:
    try:
        return len(json.dumps(content, default=str))
    except (TypeError, ValueError, RecursionError):
        return 2**62  # not measurable: never stored


def _well_formed(msg_type: str, content) -> bool:
    if msg_type not in OUTPUT_TYPES or not isinstance(content, dict):
        return False
    return all(isinstance(content.get(k), t) for k, t in OUTPUT_TYPES[msg_type].items())


def trimmed_error(ename, evalue, traceback) -> dict:
    """A short copy of an error output: an error always reaches the grader, even past the limits,
    because a test cell whose visible checks raised scores 0."""
    lines = [str(t)[:1000] for t in traceback[-10:]] if isinstance(traceback, list) else []
    return {"ename": str(ename)[:200], "evalue": str(evalue)[:1000], "traceback": lines}


def _is_count(value) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


class OutputBudget(HasTraits):
    max_output_bytes = Integer(2_000_000, help="output kept per cell").tag(config=True)
    max_total_output_bytes = Integer(8_000_000, help="output kept per notebook").tag(config=True)

    def reset_execution_trackers(self) -> None:
        super().reset_execution_trackers()
        self._out_bytes, self._capped, self._total_out, self._late_error = {}, set(), 0, set()

    def _charge(self, charges: dict[int, int]) -> bool:
        """Charge n bytes to each cell in ``charges``; False (and a note in the first cell to pass its
        limit) when that would pass a cell's or the notebook's limit."""
        total = self._total_out + sum(charges.values())
        for idx, n in charges.items():
            size = self._out_bytes.get(idx, 0) + n
            if size > self.max_output_bytes or total > self.max_total_output_bytes:
                if idx not in self._capped:
                    self._capped.add(idx)
                    what = (f"this cell's output passed {self.max_output_bytes} bytes" if size > self.max_output_bytes
                            else f"the notebook's output passed {self.max_total_output_bytes} bytes")
                    self.nb.cells[idx].setdefault("outputs", []).append(
                        new_output("stream", name="stdout", text=f"\n[output cut: {what}]\n"))
                return False
        for idx, n in charges.items():
            self._out_bytes[idx] = self._out_bytes.get(idx, 0) + n
        self._total_out = total
        return True

    def process_message(self, msg, cell, cell_index):
        content = msg.get("content")
        if isinstance(content, dict) and not _is_count(content.get("execution_count")):
            content["execution_count"] = None  # nbconvert writes it into the page as it is
        return super().process_message(msg, cell, cell_index)

    def output(self, outs, msg, display_id, cell_index):
        content = msg.get("content")
        if not _well_formed(msg.get("msg_type"), content):
            return None
        if msg["msg_type"] == "execute_result":
            content.setdefault("execution_count", None)
        if not self._charge({cell_index: message_bytes(content)}):
            if msg["msg_type"] != "error" or cell_index in self._late_error:
                return None
            self._late_error.add(cell_index)  # the first error past the limit is kept, trimmed
            msg = {**msg, "content": trimmed_error(content["ename"], content["evalue"], content["traceback"])}
        return super().output(outs, msg, display_id, cell_index)

    def _update_display_id(self, display_id, msg):
        content = msg.get("content")
        targets = self._display_id_map.get(display_id, {})
        if not targets or not isinstance(content, dict) or not _well_formed("display_data", content):
            return
        n = message_bytes({"data": content["data"], "metadata": content["metadata"]})
        charges = {idx: n * len(positions) for idx, positions in targets.items() if positions}
        if charges and self._charge(charges):
            super()._update_display_id(display_id, msg)

    def handle_comm_msg(self, outs, msg, cell_index):
        return None  # no widget state, no mimicked widget (whose outputs would bypass ``output``)

    def set_widgets_metadata(self) -> None:
        return None
