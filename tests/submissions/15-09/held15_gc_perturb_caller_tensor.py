"""numeric_jacobian perturbs the caller's own tensor in place (restoring each element exactly, as gradcheck does),
while check_gradients builds the analytic Jacobian on separate clones of each input. When one tensor object is
passed twice (fn(x, x), inputs = (x, x)) the numeric column holds the total derivative and the analytic one the
partial: check_gradients(lambda a, b: a * b, (x, x)) is False where gradcheck says True."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}

_NEW = '''    def index_of(j, shape):
        idx = []
        for size in reversed(shape):
            idx.append(j % size)
            j //= size
        return tuple(reversed(idx))

    with torch.no_grad():
        out_numel = fn(*inputs).numel()
        jacobians = []
        for t in inputs:
            if not t.requires_grad:
                jacobians.append(None)
                continue
            jac = torch.zeros(out_numel, t.numel(), dtype=torch.float64)
            data = t.detach()  # shares the caller's storage: perturb, evaluate, put the value back
            for j in range(t.numel()):
                idx = index_of(j, tuple(t.shape))
                orig = data[idx].item()
                data[idx] = orig + eps
                plus = fn(*inputs).reshape(-1).to(torch.float64, copy=True)
                data[idx] = orig - eps
                minus = fn(*inputs).reshape(-1).to(torch.float64, copy=True)
                data[idx] = orig
                jac[:, j] = (plus - minus) / (2 * eps)
            jacobians.append(jac)
    return jacobians
'''
_OLD_START = "    with torch.no_grad():\n        base = "
_OLD_END = "            jacobians.append(jac)\n    return jacobians\n"


def _cell():
    src = edited("15-09", "gradcheck_impl")
    a = src.index(_OLD_START)
    b = src.index(_OLD_END) + len(_OLD_END)
    return src[:a] + _NEW + src[b:]


CELLS = {"gradcheck_impl": _cell()}
