"""Known-wrong zero3_step (held-out round 24): the forward switches grad mode off with
torch.set_grad_enabled(False) and switches it back to the saved mode only after the last layer, not in a
context manager. The text says "leave the grad mode and the process's other global settings as you found them
(`with torch.no_grad():`, not `torch.set_grad_enabled(False)`)". Normal calls give the same numbers; the input on
which it goes wrong: a layer (the caller's code) that raises during the forward, e.g. on a shape it does not accept.
The error reaches the caller, and the caller's process is left with grad mode off (with torch.no_grad() it would be
back on)."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "    inputs, h = [], x\n"
    "    with torch.no_grad():\n"
    "        for i, layer in enumerate(layers):\n"
    "            inputs.append(h)\n"
    "            h = layer(gather(i), h)\n",
    "    inputs, h = [], x\n"
    "    was_enabled = torch.is_grad_enabled()\n"
    "    torch.set_grad_enabled(False)  # the forward records nothing\n"
    "    for i, layer in enumerate(layers):\n"
    "        inputs.append(h)\n"
    "        h = layer(gather(i), h)\n"
    "    torch.set_grad_enabled(was_enabled)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
