"""Held-out round 24: for a BatchNorm2d(affine=False) fold_conv_bn makes gamma and beta with torch.ones(C) and
torch.zeros(C), without device= (the default device, CPU), so on a GPU the arithmetic mixes a CPU gamma with the
GPU running statistics and fails. It breaks "parameters in the same dtype and on the same device as `conv`'s
weight" for an affine=False BN on any device other than the CPU (on CPU it is right: the dtypes promote and the
result is cast back)."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "fail", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fold_conv_bn_impl": edited(
    "15-06", "fold_conv_bn_impl",
    ("    gamma = bn.weight.detach() if bn.weight is not None else torch.ones_like(bn.running_var)  # affine=False\n"
     "    beta = bn.bias.detach() if bn.bias is not None else torch.zeros_like(bn.running_mean)\n",
     "    gamma = bn.weight.detach() if bn.weight is not None else torch.ones(bn.num_features)  # affine=False\n"
     "    beta = bn.bias.detach() if bn.bias is not None else torch.zeros(bn.num_features)\n"))}
