"""Held-out round 2 (15-03 trace): "finite" read from the statistics already computed (mean and std finite).

Any inf or nan in the output does make mean or std non-finite, but large finite outputs do too: values
near 1e200 (float64) or 1e30 (float32) overflow the variance, so std is inf and the record says
finite=False for an output whose every value is finite.
"""
EXPECT = {'trace': 'fail'}

CELLS = {
    'trace_impl': '''
import math


def trace_activations(model, x):
    """Run model(x) once, recording per-leaf-module output statistics with temporary forward hooks."""
    records, handles = [], []

    def make_hook(name):
        def hook(module, inputs, output):
            out = output.detach()
            mean, std = out.mean().item(), out.std().item()
            records.append({"name": name, "shape": tuple(out.shape), "mean": mean, "std": std,
                            "finite": math.isfinite(mean) and math.isfinite(std)})
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
