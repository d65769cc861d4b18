"""Gap-hunting round (issue 39, 2026-12-01): fold_conv_bn reads bn.weight and bn.bias, which are None for a
BatchNorm2d(affine=False), so it raises AttributeError there (the reference did too before this round). Breaks:
"computing bn(conv(x)) for an eval-mode bn" for every BatchNorm2d (torch's fuse_conv_bn_eval takes gamma 1, beta 0)."""
from course.grading.class_run.submissions import edited

CELLS = {"fold_conv_bn_impl": edited("15-06", "fold_conv_bn_impl", ('    gamma = bn.weight.detach() if bn.weight is not None else torch.ones_like(bn.running_var)  # affine=False\n    beta = bn.bias.detach() if bn.bias is not None else torch.zeros_like(bn.running_mean)\n    scale = gamma * torch.rsqrt(bn.running_var + bn.eps)\n    # cast back: a wider bn (float64 with a float32 conv) would otherwise promote the folded parameters\n    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))\n    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + beta).to(w.dtype))', '    scale = bn.weight.detach() * torch.rsqrt(bn.running_var + bn.eps)\n    fused.weight = nn.Parameter((w * scale.reshape(-1, *([1] * (w.dim() - 1)))).to(w.dtype))\n    fused.bias = nn.Parameter(((b - bn.running_mean) * scale + bn.bias.detach()).to(w.dtype))'))}
EXPECT = {"fold_conv_bn": "fail"}
