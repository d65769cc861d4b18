"""Replies from a submission's worker are hostile data: check their shape before anything reads them.

``torch.load(weights_only=True)`` accepts only plain types, but plain types can still be made
deep, self-referential or shared so that formatting one message expands a 1 kB frame into
gigabytes. ``check`` walks a reply as the tree any formatter would see (shared parts counted each
time they appear, so a cycle can never finish) and refuses it past fixed limits.
"""
from __future__ import annotations

MAX_DEPTH = 40
MAX_NODES = 100_000
MAX_TEXT = 4_000_000  # characters in all strings and bytes together


class NotPlain(ValueError):
    pass


def check(obj, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES, max_text: int = MAX_TEXT,
          max_elements: int | None = None):
    """Return ``obj`` unchanged if it is within the limits, else raise NotPlain saying which.

    ``max_elements`` bounds the elements of all its tensors together (each view counted whole): a view
    with a stride of 0 over one byte can claim billions of elements, and the first ``.double()``,
    ``.flatten()`` or ``.to_dense()`` a check applies to it would make them real in the reader's memory."""
    import sys
    torch = sys.modules.get("torch")
    nodes = text = elements = 0
    stack = [(obj, 0)]
    while stack:
        o, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise NotPlain(f"more than {max_nodes} values (or a structure that contains itself)")
        if depth > max_depth:
            raise NotPlain(f"nested more than {max_depth} levels deep")
        if isinstance(o, (str, bytes, bytearray)):
            text += len(o)
            if text > max_text:
                raise NotPlain(f"more than {max_text} characters of text")
        elif isinstance(o, dict):
            for k, v in o.items():
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
        elif isinstance(o, (list, tuple, set, frozenset)):
            stack.extend((v, depth + 1) for v in o)
        elif max_elements is not None and torch is not None and isinstance(o, torch.Tensor):
            elements += o.numel()
            if elements > max_elements:
                raise NotPlain(f"tensors of more than {max_elements} elements in all (views counted whole)")
    return obj


def one_line(text, limit: int = 300) -> str:
    """``text`` as one log line: control characters escaped, length capped."""
    s = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in str(text)[: limit * 2])
    return s if len(s) <= limit else s[: limit - 3] + "..."


def cap(text: str, limit: int) -> str:
    """A message for a student or a feedback page, at most ``limit`` characters."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} more characters cut]"
