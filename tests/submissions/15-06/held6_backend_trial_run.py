"""Wrong: "... and returns gm.forward so the compiled function still computes the right values". To show
the output shapes, this backend runs the captured graph once on example_inputs, which are the caller's own
tensors: a function that changes its input in place (t.mul_(2)) has the change applied twice, and the
compiled call returns and leaves behind different values than the plain function."""
from course.grading.class_run.submissions import edited

EXPECT = {"recording_backend": "fail"}
CELLS = {"recording_backend_impl": edited("15-06", "recording_backend_impl", ("        print(gm.graph)\n", '''\
        print(gm.graph)
        trial = gm(*example_inputs)
        print("output shapes:", [tuple(o.shape) for o in trial if isinstance(o, torch.Tensor)])
'''))}
