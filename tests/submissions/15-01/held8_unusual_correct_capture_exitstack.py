"""Correct (held-out round 8), written differently: enters each hook handle as a context manager on an ExitStack, so
leaving the with block (normally or by an exception) removes them all."""
EXPECT = {'forward_hooks': 'pass'}
CELLS = {"capture_impl": '''
import contextlib


def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    table = dict(model.named_modules())
    unknown = next((n for n in names if n not in table), None)
    if unknown is not None:
        raise KeyError(unknown)
    out = {}
    with contextlib.ExitStack() as stack:
        for n in dict.fromkeys(names):
            stack.enter_context(table[n].register_forward_hook(
                lambda mod, inp, res, n=n: out.__setitem__(n, res.detach())))
        model(x)
    return out
'''}
