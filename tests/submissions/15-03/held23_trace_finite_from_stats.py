"""Held-out round 23 (issue 39): trace_activations derives "finite" from the two statistics it already has
(math.isfinite(mean) and math.isfinite(std)) instead of looking at the values. A one-element output (a batch of
one through Linear(d, 1)) has std nan, so it is reported non-finite; float16 outputs near the top of the range
(+-60000) are finite but their std overflows to inf. Contradicts: '"finite" (`True` if every output value is
finite)'."""

CELLS = {
    "trace_impl": '''
import math as _math


def trace_activations(model, x):
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            mean, std = out.mean().item(), out.std().item()
            records.append({"name": name, "shape": tuple(out.shape), "mean": mean, "std": std,
                            "finite": _math.isfinite(mean) and _math.isfinite(std)})
        return hook

    try:
        for name, m in model.named_modules():
            if next(m.children(), None) is None:
                handles.append(m.register_forward_hook(make_hook(name)))
        output = model(x)
    finally:
        for h in handles:
            h.remove()
    return output, records
''',
}
EXPECT = {"trace": "fail"}
