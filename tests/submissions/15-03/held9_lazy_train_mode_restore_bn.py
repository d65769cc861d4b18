"""Held-out round 9: the dry run keeps every module in the mode it is in (training, usually) and instead
snapshots the BatchNorm statistics and copies them back afterwards (fresh lazy ones are reset). In
training mode a BatchNorm1d raises for an example batch of one, and Dropout draws from the global RNG.
The text: dry-run on `example` without leaving a trace (section 4: the dry run runs in eval() mode)."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "fail", "trace": "pass"}
CELLS = {"lazy_impl": edited(
    "15-03", "lazy_impl",
    ("    modes = {m: m.training for m in model.modules()}\n"
     "    model.eval()\n"
     "    try:\n"
     "        with torch.no_grad():\n"
     "            model(example)\n"
     "    finally:\n"
     "        for m, mode in modes.items():\n"
     "            m.training = mode\n",
     "    bns = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]\n"
     "    saved = {m: None if any(isinstance(b, nn.parameter.UninitializedBuffer) for b in m.buffers())\n"
     "             else [b.clone() for b in m.buffers()] for m in bns}\n"
     "    with torch.no_grad():\n"
     "        model(example)\n"
     "        for m, bufs in saved.items():\n"
     "            if bufs is None:\n"
     "                m.reset_running_stats()\n"
     "            else:\n"
     "                for b, old in zip(m.buffers(), bufs):\n"
     "                    b.copy_(old)\n"))}
