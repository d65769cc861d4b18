"""Held-out round 15: after the dry run prepare_lazy applies an initialisation scheme (kaiming_normal_ on every
conv/linear weight, zeros on their biases), "now that the shapes are known". The lazy layers' fresh weights may be
initialised any way, but the values of parameters that already existed (a pretrained Linear, a materialised model)
are overwritten. Exercise 4's text: "no change ... to the values of parameters that already exist, beyond the
cast"."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "fail", "trace": "pass"}
CELLS = {"lazy_impl": edited("15-03", "lazy_impl", (
    "    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)",
    "    with torch.no_grad():\n"
    "        for m in model.modules():\n"
    "            if isinstance(m, (nn.Linear, nn.Conv2d)):\n"
    "                nn.init.kaiming_normal_(m.weight)\n"
    "                if m.bias is not None:\n"
    "                    m.bias.zero_()\n"
    "    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)"))}
