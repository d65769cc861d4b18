"""Known-wrong StableSoftplus: backward reuses the output, sigmoid(x) = 1 - exp(-softplus(x)); the
subtraction cancels for very negative x and returns 0 instead of a tiny positive gradient."""
from course import notebook as _nb
from course.grading.class_run import submissions as _subs

_SRC = {_nb.nbgrader_meta(c).get("grade_id"): c.source for c in _subs.reference("15-01").cells}


def _patch(gid, old, new):
    assert old in _SRC[gid], (gid, old)
    return _SRC[gid].replace(old, new)


CELLS = {"softplus_impl": _patch("softplus_impl", "        ctx.save_for_backward(x)\n        return torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))",
                                  "        out = torch.clamp(x, min=0) + torch.log1p(torch.exp(-x.abs()))\n        ctx.save_for_backward(out)\n        return out")
         .replace("        (x,) = ctx.saved_tensors\n        return grad_out * torch.sigmoid(x)",
                  "        (out,) = ctx.saved_tensors\n        return grad_out * (1 - torch.exp(-out))")}
EXPECT = {"softplus": "fail"}
