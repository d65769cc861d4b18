"""Wrong: "params ... (0-d, empty and non-contiguous ones included)" and "Write the new values into the
tensors of params in place". This zero1_step writes each parameter through p.reshape(-1).copy_(...); for a
non-contiguous parameter reshape returns a copy, so the new values land in a temporary and the parameter
keeps its old values."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": edited("16-04", "zero1_impl", ("    _write_back(params, full)\n", '''\
    start = 0
    with torch.no_grad():
        for p in params:
            p.reshape(-1).copy_(full[start:start + p.numel()])
            start += p.numel()
'''))}
