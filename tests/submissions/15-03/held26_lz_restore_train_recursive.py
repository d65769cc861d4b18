"""Held-out round 26 (issue 39): prepare_lazy records every module's mode and restores it with the
recursive `m.train(mode)`, walking model.modules() (parents before children). Each child is set again after
its parent, so this is right for a tree, but not for a module shared by two parents: modules() lists it
once, after its first parent, and the second parent's `train(mode)` overwrites it. E.g.
`M = nn.BatchNorm1d(4); model = nn.Sequential(nn.Sequential(nn.LazyLinear(4), M), nn.Sequential(M))`,
model in train mode and M in eval mode: afterwards M is in train mode. Contradicts: "every module back in
the train/eval mode it was in"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "lazy_impl": edited(
        "15-03", "lazy_impl",
        ("            m.training = mode", "            m.train(mode)"),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "pass", "lazy": "fail", "trace": "pass"}
