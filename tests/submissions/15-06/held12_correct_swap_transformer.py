"""Held-out round 12 (issue 39): a correct swap_relu written unusually, as a torch.fx.Transformer that
re-traces the graph node by node and emits new_fn for every ReLU in module, function or method form
(in-place ones and ones whose input came as input=...). The other tasks are the reference."""

CELLS = {"swap_relu_impl": '''
_RELU_FUNCTIONS = (F.relu, torch.relu, torch.relu_, F.relu_)


def swap_relu(model, new_fn):
    traced = fx.symbolic_trace(model)

    class _Swap(fx.Transformer):
        def _emit(self, args, kwargs):
            inp = args[0] if args else kwargs["input"]
            return self.tracer.create_proxy("call_function", new_fn, (inp,), {})

        def call_module(self, target, args, kwargs):
            if isinstance(self.fetch_attr(target), nn.ReLU):
                return self._emit(args, kwargs)
            return super().call_module(target, args, kwargs)

        def call_function(self, target, args, kwargs):
            if target in _RELU_FUNCTIONS:
                return self._emit(args, kwargs)
            return super().call_function(target, args, kwargs)

        def call_method(self, target, args, kwargs):
            if target in ("relu", "relu_"):
                return self._emit(args, kwargs)
            return super().call_method(target, args, kwargs)

    out = _Swap(traced).transform()
    out.graph.lint()
    out.recompile()
    return out
'''}
EXPECT = {"count_ops": "pass", "fold_conv_bn": "pass", "fuse_conv_bn": "pass", "insert_observers": "pass",
          "swap_relu": "pass", "recording_backend": "pass"}
