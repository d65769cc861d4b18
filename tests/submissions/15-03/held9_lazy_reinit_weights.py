"""Held-out round 9: after the dry run, prepare_lazy re-initialises every Conv2d and Linear weight with
kaiming_normal_ "now that the shapes are known", which also wipes the trained weights of a model that
was already materialised. The text: prepare_lazy takes a (possibly lazy) model, moves and casts it, and
dry-runs it without leaving a trace."""
from course.grading.class_run.submissions import edited

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "fail", "trace": "pass"}
CELLS = {"lazy_impl": edited(
    "15-03", "lazy_impl",
    ("    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)",
     "    with torch.no_grad():\n"
     "        for m in model.modules():\n"
     "            if isinstance(m, (nn.Conv2d, nn.Linear)):\n"
     "                nn.init.kaiming_normal_(m.weight, nonlinearity=\"relu\")\n"
     "    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)"))}
