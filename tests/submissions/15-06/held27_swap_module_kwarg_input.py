"""Held-out round 27: swap_relu reads the ReLU's input from `node.kwargs["input"]` only for the function forms
(`torch.relu(input=x)`), and takes `node.args[0]` for a module call, assuming a module is always called
positionally. An `nn.ReLU` module called with its keyword, `self.act(input=h)` (nn.ReLU.forward's parameter is
named `input`), is a `call_module` node with `args == ()`, and the pass fails with IndexError. That breaks
"replace every ReLU (all four forms above, including in-place ones) by a `call_function` node calling `new_fn`
on the ReLU's input tensor alone"."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ('        inp = node.args[0] if node.args else node.kwargs["input"]',
     '        inp = node.args[0] if node.args or node.op == "call_module" else node.kwargs["input"]'))}
