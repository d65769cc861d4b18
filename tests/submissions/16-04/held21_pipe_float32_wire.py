"""Known-wrong pipeline_grads (held-out round 21): activations and their gradients travel in float32 (half the
bytes) and are cast back to the stage's dtype on arrival, so a float64 model's rank 1 runs on activations rounded
to float32 and rank 0 back-propagates a rounded gradient ("a buffer that receives activations or their gradients
is in the parameters' dtype"; "the .grad of every parameter ... equals the gradient ... for the unsplit model")."""
from course.grading.class_run.submissions import edited

CELLS = {"pipeline_impl": edited("16-04", "pipeline_impl", (
    "            dist.send(kept[m].detach(), 1)\n",
    "            dist.send(kept[m].detach().float(), 1)\n"), (
    "            g = kept[m].new_empty(kept[m].shape)\n"
    "            dist.recv(g, 1)\n",
    "            g = kept[m].new_empty(kept[m].shape, dtype=torch.float32)\n"
    "            dist.recv(g, 1)\n"
    "            g = g.to(kept[m].dtype)\n"), (
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=dtype)\n"
    "            dist.recv(h, 0)\n",
    "            h = chunks[m].new_empty((len(chunks[m]), width), dtype=torch.float32)\n"
    "            dist.recv(h, 0)\n"
    "            h = h.to(dtype)\n"), (
    "            dist.send(h.grad, 0)\n",
    "            dist.send(h.grad.float(), 0)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'fail'}
