"""Held-out round 23, a correct answer written in an unusual way: aten_ops walks the module tree with an explicit
stack (children() of every module, each module once), tests node targets against the operator classes in one
tuple, counts with dict.get; unsupported_ops builds the set difference of the counted names and `supported`, then
sorts it. Same results as the reference on every program."""

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"op_inventory_impl": '''
_OPERATOR_TYPES = (torch._ops.OpOverload, torch._ops.HigherOrderOperator)


def aten_ops(ep) -> dict:
    """Count the ATen and higher-order operator calls of every graph in the ExportedProgram ``ep``."""
    counts, seen, stack = {}, set(), [ep.graph_module]
    while stack:
        module = stack.pop()
        if id(module) in seen:
            continue
        seen.add(id(module))
        stack.extend(module.children())
        if isinstance(module, fx.GraphModule):
            for node in module.graph.nodes:
                if node.op == "call_function" and isinstance(node.target, _OPERATOR_TYPES):
                    name = str(node.target)
                    counts[name] = counts.get(name, 0) + 1
    return counts


def unsupported_ops(ep, supported: set) -> list:
    """The sorted, distinct operator names ``ep`` calls that are not in ``supported``."""
    return sorted(set(aten_ops(ep)).difference(supported))
'''}
