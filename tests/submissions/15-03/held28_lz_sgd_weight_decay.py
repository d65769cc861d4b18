"""Held-out round 28 (15-03 lazy): the returned SGD carries weight_decay=5e-4 (a common habit).

The text: prepare_lazy "returns `torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)`, created after the
dry run". This one returns SGD(..., lr=lr, momentum=0.9, weight_decay=5e-4): its param_groups[0]["weight_decay"]
is 5e-4 instead of 0, and every step shrinks the weights (one step with zero gradients already changes them).
Wrong on every model, e.g. make_lazy_net(10) with a (2, 3, 12, 12) example.
"""
from course.grading.class_run.submissions import edited

EXPECT = {"lazy": "fail"}

CELLS = {
    "lazy_impl": edited("15-03", "lazy_impl",
                        ("    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)\n",
                         "    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)\n")),
}
