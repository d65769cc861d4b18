"""Held-out round 29: swap_relu memoises the GraphModule by `(id(model), new_fn)` (keeping `model` alive) and
returns the cached one on a later call. Because the traced GraphModule shares the leaf modules, weight changes
still show, but a structural change of `model` between the calls does not: after `model[1] = nn.Identity()`
(or a new nn.ReLU put where a Tanh was) the second `swap_relu(model, torch.tanh)` returns the graph of the OLD
model. That breaks "trace `model` and replace every ReLU ...": the result is not `model` with its ReLUs swapped
(and the same object comes back twice, so a change to the first result shows in the second). Goes wrong on:
m = Sequential(Linear, ReLU); swap_relu(m, torch.tanh); m[1] = nn.Identity(); swap_relu(m, torch.tanh)(x)
still applies tanh."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "fail", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": edited(
    "15-06", "swap_relu_impl",
    ("def swap_relu(", "_SWAP_CACHE = {}\n\n\ndef swap_relu("),
    ("    gm = fx.symbolic_trace(model)\n",
     "    hit = _SWAP_CACHE.get((id(model), new_fn))\n"
     "    if hit is not None:\n"
     "        return hit[1]\n"
     "    gm = fx.symbolic_trace(model)\n"),
    ("    return gm\n", "    _SWAP_CACHE[(id(model), new_fn)] = (model, gm)\n    return gm\n"))}
