"""Wrong (held-out round 30): evaluate records and restores the train/eval mode only of the model itself
and of the submodules that hold parameters of their own; a parameter-free submodule (Dropout, ReLU, a nested
Sequential) that was in training mode is left in eval mode after the call. Violates "Every submodule is
left in the train or eval mode it was in before the call".
Goes wrong on: net = nn.Sequential(nn.Linear(4, 3), nn.Dropout(0.5), nn.Linear(3, 2)) in training mode:
after evaluate(net, x), net[1].training is False (it was True); net, net[0], net[2] are restored."""
from course.grading.class_run.submissions import edited

EXPECT = {'evaluate': 'fail'}
CELLS = {"evaluate_impl": edited("00-02", "evaluate_impl",
    ("    modes = {m: m.training for m in model.modules()}",
     "    modes = {m: m.training for m in model.modules()\n"
     "             if m is model or any(True for _ in m.parameters(recurse=False))}"),
)}
