"""Held-out round 24, a correct answer written another way: swap_relu re-traces the traced model through an
fx.Transformer subclass whose call_module/call_function/call_method hooks emit one call_function(new_fn, (input,))
proxy for each ReLU form (the input taken from args or from the `input`/`self` keyword) and hand every other node
to the default hooks; transform() runs every node, so ReLUs whose result is unused are recorded (and replaced)
too. The returned GraphModule is built by transform() and therefore recompiled."""
from course.grading.class_run.submissions import edited

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": '''def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    """Trace ``model`` and replace every ReLU (module, function or method form) by a call of ``new_fn``."""
    ### BEGIN SOLUTION
    relu_functions = (F.relu, torch.relu, torch.relu_, F.relu_)

    def first_input(args, kwargs, name):
        return args[0] if args else kwargs[name]

    class SwapReLU(fx.Transformer):
        def call_module(self, target, args, kwargs):
            if isinstance(self.fetch_attr(target), nn.ReLU):
                return self.tracer.create_proxy("call_function", new_fn, (first_input(args, kwargs, "input"),), {})
            return super().call_module(target, args, kwargs)

        def call_function(self, target, args, kwargs):
            if target in relu_functions:
                return self.tracer.create_proxy("call_function", new_fn, (first_input(args, kwargs, "input"),), {})
            return super().call_function(target, args, kwargs)

        def call_method(self, target, args, kwargs):
            if target in ("relu", "relu_"):
                return self.tracer.create_proxy("call_function", new_fn, (first_input(args, kwargs, "self"),), {})
            return super().call_method(target, args, kwargs)

    gm = SwapReLU(fx.symbolic_trace(model)).transform()
    gm.graph.lint()
    return gm
    ### END SOLUTION
'''}
