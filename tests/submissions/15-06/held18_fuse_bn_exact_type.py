"""Held-out round 18: fuse_conv_bn matches the pattern with type(module) is nn.BatchNorm2d (the eval-mode check
still uses isinstance). Written as wrong ("every Conv2d -> BatchNorm2d pair"; a subclass instance is a BatchNorm2d),
kept as accepted: symbolic_trace keeps only torch.nn / torch.ao.nn modules as leaves, so a subclass defined anywhere
else is traced into (BatchNorm2d's input-dimension check then makes the trace raise, or it becomes an F.batch_norm
call), and torch itself defines no subclass of nn.BatchNorm2d: no call_module node is ever such an instance."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"fuse_conv_bn_impl": edited(
    "15-06", "fuse_conv_bn_impl",
    ("if node.op != \"call_module\" or not isinstance(gm.get_submodule(node.target), nn.BatchNorm2d):",
     "if node.op != \"call_module\" or type(gm.get_submodule(node.target)) is not nn.BatchNorm2d:"))}
