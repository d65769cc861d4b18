"""Held-out round 18, a correct answer written in an unusual way: swap_relu as a torch.fx.Transformer that re-traces
the graph and emits a call_function node of new_fn (input tensor alone) wherever a ReLU module, function or method
is met; unused ReLUs keep their (new) node, other nodes are copied as they are."""

EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
CELLS = {"swap_relu_impl": '''def swap_relu(model: nn.Module, new_fn) -> fx.GraphModule:
    """Trace ``model`` and replace every ReLU (module, function or method form) by a call of ``new_fn``."""
    relu_functions = {F.relu, torch.relu, torch.relu_, F.relu_}

    class _Swap(fx.Transformer):
        def _new(self, args, kwargs):
            return self.tracer.create_proxy("call_function", new_fn, (args[0] if args else kwargs["input"],), {})

        def call_module(self, target, args, kwargs):
            if isinstance(self.fetch_attr(target), nn.ReLU):
                return self._new(args, kwargs)
            return super().call_module(target, args, kwargs)

        def call_function(self, target, args, kwargs):
            if target in relu_functions:
                return self._new(args, kwargs)
            return super().call_function(target, args, kwargs)

        def call_method(self, target, args, kwargs):
            if target in ("relu", "relu_"):
                return self._new(args, kwargs)
            return super().call_method(target, args, kwargs)

    out = _Swap(fx.symbolic_trace(model)).transform()
    out.graph.lint()
    out.recompile()
    return out
'''}
