"""Wrong: "Only module calls are observed (a functional F.relu is not an nn.ReLU module)." This
insert_observers also puts an observer after the functional twins of the requested module types (F.relu
and torch.relu for nn.ReLU, F.conv2d for nn.Conv2d, F.linear for nn.Linear)."""
from course.grading.class_run.submissions import edited

EXPECT = {"insert_observers": "fail"}
CELLS = {"insert_observers_impl": edited("15-06", "insert_observers_impl", (
    '''        if node.op != "call_module" or not isinstance(gm.get_submodule(node.target), op_types):
            continue
''', '''        twins = {nn.ReLU: (F.relu, torch.relu), nn.Conv2d: (F.conv2d,), nn.Linear: (F.linear,)}
        functional = tuple(f for cls, fs in twins.items() if issubclass(cls, op_types) for f in fs)
        is_module = node.op == "call_module" and isinstance(gm.get_submodule(node.target), op_types)
        if not (is_module or (node.op == "call_function" and node.target in functional)):
            continue
'''))}
