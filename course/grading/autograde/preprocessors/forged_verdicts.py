"""``MarkForgedVerdicts``: lines of the notebook's own output that look like the grader's verdict
("Score for this cell: 3.00 / 3", "  PASS  title  (1.00/1.00)", "Hidden checks for ...") are
prefixed with a visible mark (in colour, after resetting any colours the output set), in every
code cell, before the real verdict is appended.

Look-alikes count: lines are compared after Unicode normalisation (NFKC), without invisible
characters, case-folded, with common Cyrillic and Greek homoglyphs read as Latin letters.
"""
from __future__ import annotations

import re
import unicodedata

from nbgrader.preprocessors import NbGraderPreprocessor

# reset colours first (earlier output could make the mark invisible), then the mark in bold red
MARK = "\x1b[0;1;31m[printed by the notebook, not the grader]\x1b[0m "
_HOMOGLYPHS = str.maketrans("аеорсухіјѕԁӏαεορτυνκ", "aeopcyxijsdlaeoptuvk")  # after casefold
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_S, _N = r"\s{0,5}", r"\d{1,6}(\.\d{1,6})?"  # bounded, so that a long line cannot make matching slow
_VERDICT = re.compile("|".join([
    rf"score{_S}for{_S}this{_S}cell", rf"grading{_S}error", rf"checks{_S}could{_S}not{_S}run",
    rf"visible{_S}checks{_S}in{_S}this{_S}cell", rf"no{_S}hidden{_S}checks{_S}were{_S}found",
    rf"hidden{_S}checks{_S}for\b[^\n]{{0,300}}?\({_S}\d{{1,6}}{_S}run\b",
    rf"(^|\W)(pass|fail|skip)\W[^\n]{{0,300}}?\({_S}{_N}{_S}/{_S}{_N}{_S}\)"]))


def skeleton(line: str) -> str:
    text = _CONTROL.sub("", _ANSI.sub("", line))
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc", "Mn", "Me") or ch == "\t")
    return text.casefold().translate(_HOMOGLYPHS)


def looks_like_verdict(line: str) -> bool:
    return bool(_VERDICT.search(skeleton(line)))


def mark(text: str) -> str:
    if not any(looks_like_verdict(ln) for ln in text.splitlines()):
        return text
    return "".join(MARK + ln if looks_like_verdict(ln) else ln for ln in text.splitlines(True))


class MarkForgedVerdicts(NbGraderPreprocessor):

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            for o in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
                if isinstance(o.get("text"), str):
                    o["text"] = mark(o["text"])
                if isinstance(o.get("data", {}).get("text/plain"), str):
                    o["data"]["text/plain"] = mark(o["data"]["text/plain"])
                if isinstance(o.get("evalue"), str):
                    o["evalue"] = mark(o["evalue"])
                if isinstance(o.get("traceback"), list):
                    o["traceback"] = [mark(t) if isinstance(t, str) else t for t in o["traceback"]]
        return nb, resources
