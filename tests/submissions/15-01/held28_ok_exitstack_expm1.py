"""Correct (held-out round 28), written unusually: capture_activations registers the hooks inside a
contextlib.ExitStack (a RemovableHandle is a context manager whose exit removes it) and checks the names with
set arithmetic; attach_grad_clipping computes the norm with torch.linalg.vector_norm and scales through
`param.grad *= ...` (in place, the same tensor); run_fixed computes exp(x) + 1 as expm1(x) + 2 and run_broken
adds 1 with `y += 1`."""
from course.grading.class_run.submissions import edited

EXPECT = {"scaled_mul": "pass", "softplus": "pass", "logcosh": "pass", "clamp": "pass",
          "forward_hooks": "pass", "grad_hooks": "pass", "inplace": "pass"}
CELLS = {
    "capture_impl": '''
import contextlib


def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:
    table = dict(model.named_modules())
    unknown = set(names) - set(table)
    if unknown:
        raise KeyError(sorted(unknown))
    out = {}
    with contextlib.ExitStack() as stack:
        for n in names:
            def hook(module, inputs, output, n=n):
                out[n] = output.detach()
            stack.enter_context(table[n].register_forward_hook(hook))
        model(x)
    return out
''',
    "grad_clip_impl": '''
def attach_grad_clipping(model: nn.Module, max_norm: float) -> list:
    def clip(param):
        n = torch.linalg.vector_norm(param.grad)
        if n > max_norm:
            param.grad *= max_norm / n

    handles = []
    for p in model.parameters():
        if p.requires_grad:
            handles.append(p.register_post_accumulate_grad_hook(clip))
    return handles
''',
    "inplace_impl": edited("15-01", "inplace_impl",
                           ("    y.add_(1)\n", "    y += 1\n"),
                           ("    y = torch.exp(x) + 1\n", "    y = torch.expm1(x) + 2\n")),
}
