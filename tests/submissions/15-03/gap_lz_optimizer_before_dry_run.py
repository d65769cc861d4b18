"""Known-wrong prepare_lazy (gap round): builds the SGD before the dry run, on the placeholders; it keeps
working only because materialisation mutates the same Parameter objects ("returns
torch.optim.SGD(...), created after the dry run")."""
from course.grading.class_run.submissions import edited

CELLS = {"lazy_impl": edited("15-03", "lazy_impl",
    ("    modes = {m: m.training for m in model.modules()}\n",
     "    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)\n"
     "    modes = {m: m.training for m in model.modules()}\n"),
    ("    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)", "    return opt"))}
EXPECT = {"lazy": "fail"}
