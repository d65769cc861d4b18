"""Judge-side layouts for 00-01: random (shape, stride, offset) headers and what PyTorch does with them.

Expected answers come from PyTorch's own ops on meta tensors built with ``as_strided`` (no memory is
allocated, so huge sizes cost nothing). Loaded by the test files with importlib, like 15-05's judge.py.
"""
import math
import random

import torch


def rng(gen: torch.Generator) -> random.Random:
    """A Python RNG seeded from the check's own generator."""
    return random.Random(int(torch.randint(0, 2**31 - 1, (1,), generator=gen)))


def layout(r: random.Random, min_dims: int = 0, max_dims: int = 4):
    """A header as real tensors have them: contiguous strides of a (sometimes padded) shape, then
    perhaps a transpose, a stride 0 (an expand), a doubled stride (a step) and an offset."""
    n = r.randint(min_dims, max_dims)
    shape = [r.choice([0, 1, 1, 2, 3, 4]) if r.random() < 0.3 else r.randint(1, 4) for _ in range(n)]
    stride, run = [0] * n, 1
    for k in reversed(range(n)):
        stride[k] = run
        run *= max(shape[k], 1) + (r.random() < 0.2)
    if n >= 2 and r.random() < 0.4:
        i, j = r.sample(range(n), 2)
        shape[i], shape[j], stride[i], stride[j] = shape[j], shape[i], stride[j], stride[i]
    if n and r.random() < 0.2:
        stride[r.randrange(n)] = 0
    if n and r.random() < 0.2:
        stride[r.randrange(n)] *= 2
    return tuple(shape), tuple(stride), r.randint(0, 5)


def new_shape(r: random.Random, shape, bad: float = 0.05):
    """A shape with the same number of elements (merged, split or shuffled factors, extra 1s, a -1, for a
    zero-size shape in place of its 0);
    with probability ``bad`` one size is off by one."""
    numel = math.prod(shape)
    if numel == 0:
        new = [0] + [r.randint(1, 3) for _ in range(r.randint(0, 2))]
        r.shuffle(new)
    else:
        factors, m = [], numel
        for p in (2, 3, 5, 7):
            while m % p == 0:
                factors.append(p)
                m //= p
        if m > 1:
            factors.append(m)
        new = []
        for f in factors:
            if new and r.random() < 0.5:
                new[-1] *= f
            else:
                new.append(f)
        for _ in range(r.randint(0, 2)):
            new.insert(r.randint(0, len(new)), 1)
        if r.random() < 0.3:
            r.shuffle(new)
    if numel and new and r.random() < 0.3:
        new[r.randrange(len(new))] = -1
    elif not numel and r.random() < 0.3:
        # no elements: a -1 in place of the 0 is still inferred (as 0) because the other sizes pin it; only a
        # -1 next to another 0 cannot be inferred (test_view_raises draws those)
        new[new.index(0)] = -1
    if new and r.random() < bad:
        new[0] += 1
    return tuple(new)


def meta(shape, stride, offset) -> torch.Tensor:
    return torch.empty(0, device="meta").as_strided(shape, stride, offset)


def torch_op(shape, stride, offset, op, args):
    """What PyTorch's own op gives: ("ok", (shape, stride, offset)) or ("error", exception class name)."""
    t = meta(shape, stride, offset)
    try:
        if op == "view":
            o = t.view(args[0])
        elif op == "transpose":
            o = t.transpose(*args)
        elif op == "expand":
            o = t.expand(tuple(args[0]))
        elif op == "slice":
            o = torch.ops.aten.slice.Tensor(t, *args)
        elif op == "select":
            o = t.select(*args)
        else:
            raise ValueError(op)
    except (RuntimeError, IndexError) as exc:
        return "error", type(exc).__name__
    return "ok", (tuple(o.shape), tuple(o.stride()), o.storage_offset())


def describe(case) -> str:
    shape, stride, offset, op, args = case
    return f"view_meta({shape}, {stride}, {offset}, {op!r}, {args})"


def same_header(got, want) -> bool:
    """Equal shapes; offsets and the strides of dimensions over 1 equal unless the result is empty."""
    if tuple(got[0]) != want[0]:
        return False
    if math.prod(want[0]) == 0:
        return True
    return got[2] == want[2] and all(g == w for s, g, w in zip(want[0], got[1], want[1]) if s != 1)
