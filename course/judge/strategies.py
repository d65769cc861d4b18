"""Hypothesis strategies shared by the hidden suites: inputs from the whole space a task's text promises.

A text that says "any tensor", "any shape" or "any model" is graded on more than the demo's inputs:

- ``tensors()``: float tensors of any rank (0-dim and zero-size included) in any memory layout
  (transposed, strided slices, a storage offset, broadcast with stride 0, channels-last) and with
  values from the demo's range, a wide range, or with many ties;
- ``relayout(t, layout)``: the same values in another layout, for inputs a check builds itself;
- ``model_specs()``: plain descriptions of small models whose ``forward`` argument is not always
  called ``x`` and whose layers are nested, with or without dropout, BatchNorm and buffers;
  ``probelib.build_model(spec)`` builds one next to the submission, ``build_model`` here on the judge.

Layouts survive the trip to the worker (``torch.save`` keeps strides, offsets and shared storage).
Values come from a seeded ``torch.Generator``, so a draw is cheap and a regrade sees the same inputs
(the plugin's hypothesis profile derives its examples from the run's seed).
"""
from __future__ import annotations

import torch
from hypothesis import strategies as st

from .probelib import MODEL_ARG_NAMES, build_model, relayout  # noqa: F401  (the judge builds the same models and layouts)

LAYOUTS = ("contiguous", "transposed", "strided", "offset", "broadcast", "channels_last")
WRITABLE_LAYOUTS = ("contiguous", "transposed", "strided", "offset", "channels_last")  # no stride 0
VALUES = ("normal", "wide", "ties")


def shapes(min_dims: int = 0, max_dims: int = 4, min_side: int = 0, max_side: int = 5):
    """Shapes of min_dims..max_dims dimensions, each of min_side..max_side (0 gives zero-size)."""
    return st.integers(min_dims, max_dims).flatmap(
        lambda n: st.tuples(*[st.integers(min_side, max_side) for _ in range(n)]))


def _values(shape, kind: str, dtype, gen: torch.Generator) -> torch.Tensor:
    if kind == "ties":  # small integers: many equal values, exact zeros
        return torch.randint(-2, 3, shape, generator=gen).to(dtype)
    t = torch.randn(shape, generator=gen, dtype=torch.float64)
    if kind == "wide":  # magnitudes from 1e-3 to 1e3, both signs
        t = t * torch.pow(10.0, torch.randint(-3, 4, shape, generator=gen).double())
    return t.to(dtype)


@st.composite
def tensors(draw, shape=None, dtype=torch.float64, layouts=LAYOUTS, values=VALUES, requires_grad: bool = False):
    """A tensor of ``shape`` (a tuple, a strategy of tuples, or None for ``shapes()``) in a drawn layout.

    "broadcast" draws values that repeat along the first dimension (then a stride-0 expand holds
    them); leave it out of ``layouts`` for inputs that are written in place.
    """
    if shape is None:
        shape = shapes()
    shape = tuple(draw(shape) if isinstance(shape, st.SearchStrategy) else shape)
    layout, kind = draw(st.sampled_from(layouts)), draw(st.sampled_from(values))
    gen = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    t = _values(shape, kind, dtype, gen)
    if layout == "broadcast" and len(shape) >= 1 and shape[0] > 1:
        t = t[:1].expand(shape).clone()
    t = relayout(t, layout)
    return t.requires_grad_(True) if requires_grad else t


def model_specs(in_features=(3, 8), out_features=(1, 5), arg_names=MODEL_ARG_NAMES, norm: bool | None = None,
                dropout: bool | None = None):
    """Plain descriptions of small MLP-like models (see ``probelib.build_model``): the forward
    argument's name, hidden widths nested two levels deep, BatchNorm / Dropout layers, a buffer.
    ``norm`` / ``dropout``: True or False to force, None to draw."""
    flag = lambda v: st.just(v) if v is not None else st.booleans()  # noqa: E731
    return st.fixed_dictionaries({
        "arg": st.sampled_from(arg_names),
        "in": st.integers(*in_features),
        "out": st.integers(*out_features),
        "hidden": st.lists(st.integers(2, 6), min_size=1, max_size=3),
        "norm": flag(norm),
        "dropout": flag(dropout),
        "seed": st.integers(0, 2**31 - 1),
    })
