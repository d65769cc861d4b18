"""Known-wrong zero3_step (held-out round 27): the forward switches autograd off with torch.set_grad_enabled(False)
and puts the caller's mode back in `except Exception:` and after the loop, so a layer that raises a BaseException
that is not an Exception (KeyboardInterrupt on Ctrl-C, SystemExit, GeneratorExit) leaves grad mode off. The text
says "leave the grad mode and the process's other global settings as you found them, also when a layer raises
(with torch.no_grad():, not torch.set_grad_enabled(False))". Input on which it goes wrong: a layer whose forward
raises KeyboardInterrupt: after the call torch.is_grad_enabled() is False."""
from course.grading.class_run.submissions import edited

CELLS = {"zero3_impl": edited("16-04", "zero3_impl", (
    "    with torch.no_grad():\n"
    "        for i, layer in enumerate(layers):\n"
    "            inputs.append(h)\n"
    "            h = layer(gather(i), h)\n",
    "    was = torch.is_grad_enabled()\n"
    "    torch.set_grad_enabled(False)\n"
    "    try:\n"
    "        for i, layer in enumerate(layers):\n"
    "            inputs.append(h)\n"
    "            h = layer(gather(i), h)\n"
    "    except Exception:\n"
    "        torch.set_grad_enabled(was)\n"
    "        raise\n"
    "    torch.set_grad_enabled(was)\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'pass', 'zero3': 'fail', 'schedule': 'pass', 'pipeline': 'pass'}
