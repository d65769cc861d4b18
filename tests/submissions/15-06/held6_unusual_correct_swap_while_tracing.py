"""Correct, written differently: swap_relu rewrites while tracing. A Tracer subclass turns each ReLU into a
call of new_fn in create_node, so no node is ever erased or redirected afterwards; the GraphModule is built
from the tracer's root and graph."""
EXPECT = {"swap_relu": "pass"}
CELLS = {"swap_relu_impl": '''
def swap_relu(model, new_fn):
    relu_calls = (F.relu, torch.relu, torch.relu_)

    class SwapTracer(fx.Tracer):
        def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
            relu = ((kind == "call_module" and isinstance(self.root.get_submodule(target), nn.ReLU))
                    or (kind == "call_function" and target in relu_calls)
                    or (kind == "call_method" and target in ("relu", "relu_")))
            if not relu:
                return super().create_node(kind, target, args, kwargs, name, type_expr)
            source = args[0] if args else kwargs["input"]
            return super().create_node("call_function", new_fn, (source,), {}, None, type_expr)

    tracer = SwapTracer()
    graph = tracer.trace(model)
    graph.lint()
    return fx.GraphModule(tracer.root, graph)
'''}
