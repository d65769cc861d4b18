"""Gap-hunting round (issue 39, 2026-12-01): fold_conv_bn calls torch.nn.utils.fusion.fuse_conv_bn_eval instead of writing the arithmetic. Breaks: "Write the arithmetic yourself"."""
from course.grading.class_run.submissions import edited

CELLS = {"fold_conv_bn_impl": edited("15-06", "fold_conv_bn_impl", ('    fused = copy.deepcopy(conv)\n    w = conv.weight.detach()', '    from torch.nn.utils.fusion import fuse_conv_bn_eval\n    fused = fuse_conv_bn_eval(copy.deepcopy(conv), copy.deepcopy(bn))\n    if fused.bias is None:\n        fused.bias = nn.Parameter(torch.zeros(conv.out_channels, dtype=conv.weight.dtype))\n    return fused\n    w = conv.weight.detach()'))}
EXPECT = {"fold_conv_bn": "fail"}
