"""Held-out round 29: fold_conv_bn does not write the arithmetic; it wraps copies of `conv` and `bn` in an
nn.Sequential and lets `torch.fx.experimental.optimization.fuse` fold them (that helper imports
`fuse_conv_bn_eval` from `torch.nn.utils.fusion` under its own name), putting the copy of the conv in eval
mode first because PyTorch's helper asserts eval mode, and restoring the conv's mode on the result. The values,
dtype, device and configuration are all right, but the task says "Write the arithmetic yourself (the point is
to derive it; PyTorch's own `torch.nn.utils.fusion` is what the grader compares you against)". Goes wrong on
any input: PyTorch's fusion code computes the fold."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    fused = copy.deepcopy(conv)\n",
     "    from torch.fx.experimental.optimization import fuse as _fx_fuse\n"
     "    c, b = copy.deepcopy(conv).eval(), copy.deepcopy(bn).eval()\n"
     "    fused = _fx_fuse(nn.Sequential(c, b)).get_submodule('0')\n"
     "    fused.train(conv.training)\n"
     "    return fused\n"
     "    fused = copy.deepcopy(conv)\n"))}
