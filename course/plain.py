"""Replies from a submission's worker are hostile data: check their shape before anything reads them.

``torch.load(weights_only=True)`` accepts only plain types, but plain types can still be made
deep, self-referential or shared so that formatting one message expands a 1 kB frame into
gigabytes. ``check`` walks a reply as the tree any formatter would see (shared parts counted each
time they appear, so a cycle can never finish) and refuses it past fixed limits.

Nor is every type that loader builds plain data. It restores a tensor's or an OrderedDict's
attributes of its own (``torch.save`` keeps them), and an attribute of an instance hides the method
of that name: a reply tensor whose ``detach`` was the class ``torch.Tensor`` handed every check that
called ``got.detach()`` an empty tensor, which compares close to any 0-dim value. It also builds the
exceptions and traceback classes torch allows, whose text no record of the worker's words
(``course.judge.worker_text``) sees. So a reply holds only the types listed here, its tensors are
``torch.Tensor`` or ``nn.Parameter`` without hooks, and attributes of their own are dropped.
"""
from __future__ import annotations

import functools

MAX_DEPTH = 40
MAX_NODES = 100_000
MAX_TEXT = 4_000_000  # characters in all strings and bytes together


class NotPlain(ValueError):
    pass


_ATOMS = frozenset({type(None), bool, int, float, complex, str, bytes, bytearray})
_SEQUENCES = frozenset({list, tuple, set, frozenset})


def _torch_kinds(torch) -> tuple[frozenset, frozenset]:
    """(value types of torch that are plain, tensor types that are) for this torch."""
    atoms = frozenset(getattr(torch, name) for name in ("dtype", "device", "layout", "memory_format", "qscheme")
                      if isinstance(getattr(torch, name, None), type))
    return atoms, frozenset({torch.Tensor, torch.nn.Parameter})


def _drop_attributes(o) -> None:
    """Attributes a loaded tensor or OrderedDict carries of its own (a state_dict's ``_metadata``, or
    a method hidden by an instance attribute) are no data a check reads: gone before any check runs."""
    own = getattr(o, "__dict__", None)
    if own:
        own.clear()


def check(obj, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES, max_text: int = MAX_TEXT,
          max_elements: int | None = None):
    """Return ``obj`` if it is plain data within the limits (its tensors' and OrderedDicts' attributes
    of their own dropped), else raise NotPlain saying which.

    ``max_elements`` bounds the elements of all its tensors together (each view counted whole): a view
    with a stride of 0 over one byte can claim billions of elements, and the first ``.double()``,
    ``.flatten()`` or ``.to_dense()`` a check applies to it would make them real in the reader's memory."""
    import collections
    import sys
    torch = sys.modules.get("torch")
    torch_atoms, tensor_types = _torch_kinds(torch) if torch is not None else (frozenset(), frozenset())
    nodes = text = elements = 0
    stack = [(obj, 0)]
    while stack:
        o, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise NotPlain(f"more than {max_nodes} values (or a structure that contains itself)")
        if depth > max_depth:
            raise NotPlain(f"nested more than {max_depth} levels deep")
        kind = type(o)
        if kind in (str, bytes, bytearray):
            text += len(o)
            if text > max_text:
                raise NotPlain(f"more than {max_text} characters of text")
        elif kind is int and o.bit_length() > 8192:  # str() of it would pass Python's 4300 digits and raise
            raise NotPlain("an integer of more than 1024 bytes")
        elif kind in _ATOMS or kind in torch_atoms:
            continue
        elif kind is dict or kind is collections.OrderedDict:
            if kind is collections.OrderedDict:
                _drop_attributes(o)
            for k, v in dict.items(o):
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))
        elif kind in _SEQUENCES or (torch is not None and kind is torch.Size):
            if kind not in _SEQUENCES and any(type(i) is not int or not -2**63 <= i < 2**63 for i in o):
                raise NotPlain("a torch.Size of values that are not int64 (formatting it raises)")
            stack.extend((v, depth + 1) for v in o)
        elif kind in tensor_types:
            if o._backward_hooks or getattr(o, "_post_accumulate_grad_hooks", None):
                raise NotPlain("a tensor with hooks attached (torch.save never sends them)")
            _drop_attributes(o)
            if o.storage_offset() * o.element_size() >= 2**62:
                raise NotPlain("a tensor whose offset is past any storage")
            if max_elements is not None:
                whole = 1
                for n in o.shape:  # (0, 2**40) holds nothing, but its sum(0) would hold 2**40
                    whole *= max(n, 1)
                elements += whole
                if elements > max_elements:
                    raise NotPlain(f"tensors of more than {max_elements} elements in all (views counted whole)")
        else:
            raise NotPlain(f"a value of type {one_line(kind.__qualname__, 80)}, which is not plain data "
                           "(tensors, numbers, strings, lists, tuples, sets and dicts are)")
    return obj


MAX_KEYS = 4096  # keys of one dict, or items of one set, in a reply torch.save wrote


@functools.lru_cache(maxsize=1)
def _pickle_ops():
    import pickletools
    return {op.code: (op.name, [s.name for s in op.stack_before], len(op.stack_after)) for op in pickletools.opcodes}


# opcodes that leave on the stack the object they were given (filled, or built with its state)
_KEEPS = frozenset({"SETITEM", "SETITEMS", "ADDITEMS", "APPEND", "APPENDS", "BUILD", "MEMOIZE"})


def scan_pickle(data: bytes, max_keys: int = MAX_KEYS) -> None:
    """Refuse a pickle that would put more than ``max_keys`` keys into one dict or items into one set, before
    an unpickler builds it: keys of one hash (ints and tuples of ints collide at will) make each insert walk all
    those before it, and 20,000 of them held the judge's CPU 3.2 s inside torch.load, where no limit reaches.
    Follows the unpickler's stack and memo with a counter for each object; NotPlain for a pickle it cannot walk."""
    import pickletools
    ops = _pickle_ops()
    stack: list = []
    marks: list = []
    memo: dict = {}
    try:
        for op, arg, _ in pickletools.genops(data):
            name, before, after = ops[op.code]
            if name == "MARK":
                marks.append(len(stack))
                continue
            sliced = []
            if "mark" in before:
                if not marks:
                    raise NotPlain("its pickle pops a mark it never set")
                at = marks.pop()
                sliced, stack[at:] = stack[at:], []
                fixed = before.index("mark")
            else:
                fixed = len(before)
            if len(stack) < fixed:
                raise NotPlain("its pickle pops more than it pushed")
            top = stack[len(stack) - fixed:]
            del stack[len(stack) - fixed:]
            if name in _KEEPS:  # the container (or object) stays the same object
                box = top[0]
                box[0] += {"SETITEM": 1, "SETITEMS": len(sliced) // 2, "ADDITEMS": len(sliced)}.get(name, 0)
                if box[0] > max_keys:
                    raise NotPlain(f"a dict or set of more than {max_keys} entries in a torch.save reply")
                stack.append(box)
                if name == "MEMOIZE":
                    memo[len(memo)] = box
            elif name in ("DICT", "FROZENSET"):
                n = len(sliced) // 2 if name == "DICT" else len(sliced)
                if n > max_keys:
                    raise NotPlain(f"a dict or set of more than {max_keys} entries in a torch.save reply")
                stack.append([n])
            elif name == "DUP":
                stack += [top[0], top[0]]
            elif name in ("GET", "BINGET", "LONG_BINGET"):
                stack.append(memo.get(arg) or [0])
            elif name in ("PUT", "BINPUT", "LONG_BINPUT"):
                if stack:
                    memo[arg] = stack[-1]
            else:
                stack.extend([0] for _ in range(after))
    except (ValueError, KeyError, IndexError) as exc:  # NotPlain is a ValueError: kept as it is
        if isinstance(exc, NotPlain):
            raise
        raise NotPlain(f"its pickle does not read: {one_line(str(exc), 120)}") from None


def one_line(text, limit: int = 300) -> str:
    """``text`` as one log line: control characters escaped, length capped."""
    s = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in str(text)[: limit * 2])
    return s if len(s) <= limit else s[: limit - 3] + "..."


def cap(text: str, limit: int) -> str:
    """A message for a student or a feedback page, at most ``limit`` characters."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f" ... [{len(text) - limit} more characters cut]"
