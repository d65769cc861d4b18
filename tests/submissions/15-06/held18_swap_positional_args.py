"""Held-out round 18: swap_relu passes all of the ReLU's positional arguments to new_fn (node.args). Written as wrong
for F.relu(x, True) (inplace given positionally: "on the ReLU's input tensor alone (no other arguments)"), kept as
accepted: F.relu hands a Proxy to handle_torch_function as relu((input,), inplace=inplace), so the traced node's args
are (x,) and inplace sits in kwargs; torch.relu, torch.relu_, nn.ReLU calls and x.relu() take the tensor alone.
No ReLU node of a symbolic trace has more than its input in node.args."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("inp = node.args[0] if node.args else node.kwargs[\"input\"]",
     "args = tuple(node.args) if node.args else (node.kwargs[\"input\"],)"),
    ("new = gm.graph.call_function(new_fn, args=(inp,))", "new = gm.graph.call_function(new_fn, args=args)"))}
