"""numeric_jacobian perturbs the caller's own tensors in place (x[idx] += eps, then -= 2·eps, then += eps to put the
value back) instead of copies: in floating point x + eps - 2·eps + eps is not always x, so an input can come back
changed in its last bits, although the text says both functions "leave the input tensors unchanged (same values
afterwards)"."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "fail", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
CELLS = {"gradcheck_impl": edited("15-09", "gradcheck_impl", (
    """            for j in range(t.numel()):
                plus = [b.clone() for b in base]
                minus = [b.clone() for b in base]
                plus[k].view(-1)[j] += eps
                minus[k].view(-1)[j] -= eps
                diff = fn(*plus).reshape(-1).to(torch.float64) - fn(*minus).reshape(-1).to(torch.float64)
                jac[:, j] = diff / (2 * eps)""",
    """            args = list(inputs)
            for j in range(t.numel()):
                idx, rest = [], j
                for size in reversed(t.shape):
                    idx.append(rest % size)
                    rest //= size
                idx = tuple(reversed(idx))
                t[idx] += eps
                f_plus = fn(*args).reshape(-1).to(torch.float64).clone()
                t[idx] -= 2 * eps
                f_minus = fn(*args).reshape(-1).to(torch.float64).clone()
                t[idx] += eps
                jac[:, j] = (f_plus - f_minus) / (2 * eps)"""))}
