"""Held-out round 18, second pass (not counted): fuse_conv_bn folds each pair with torch's
torch.nn.utils.fusion.fuse_conv_bn_weights (PyTorch's arithmetic, no training-mode assert) instead of the notebook's
fold_conv_bn; the text says "(use your fold_conv_bn)", and fold_conv_bn's own text says to write the arithmetic
yourself rather than call torch.nn.utils.fusion."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "fail", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("fused = fold_conv_bn(gm.get_submodule(src.target), gm.get_submodule(node.target))",
     """conv, bn = gm.get_submodule(src.target), gm.get_submodule(node.target)
        fused = copy.deepcopy(conv)
        fused.weight, fused.bias = torch.nn.utils.fusion.fuse_conv_bn_weights(
            conv.weight, conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)"""))}
