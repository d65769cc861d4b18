"""Held-out round 25, correct but unusual: trace_mismatches traces with check_trace=False and ignores TracerWarning
with filterwarnings(category=...); export_dynamic_batch and save_exported key dynamic_shapes by the forward's own
argument name (read with inspect.signature); aten_ops walks named_modules() and tests for torch._ops.OperatorBase
(whose only subclasses are OpOverload and HigherOrderOperator); unsupported_ops uses a set difference; save_scripted
and save_exported write through open file objects."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {
    "trace_mismatches_impl": edited(
        "15-05", "trace_mismatches_impl",
        ("        warnings.simplefilter(\"ignore\", torch.jit.TracerWarning)\n",
         "        warnings.filterwarnings(\"ignore\", category=torch.jit.TracerWarning)\n"),
        ("            traced = torch.jit.trace(model, example)\n"
         "            return [not torch.allclose(traced(x), model(x)) for x in inputs]\n",
         "            traced = torch.jit.trace(model, (example,), check_trace=False)\n"
         "            flags = []\n"
         "            for x in inputs:\n"
         "                flags.append(not torch.allclose(traced(x), model(x)))\n"
         "            return flags\n")),
    "export_dynamic_impl": edited(
        "15-05", "export_dynamic_impl",
        ("    return torch.export.export(model, (example,), dynamic_shapes=({0: batch},))\n",
         "    import inspect\n"
         "    name = next(iter(inspect.signature(model.forward).parameters))\n"
         "    return torch.export.export(model, (example,), dynamic_shapes={name: {0: batch}})\n")),
    "op_inventory_impl": edited(
        "15-05", "op_inventory_impl",
        ("    for gm in ep.graph_module.modules():\n",
         "    for _, gm in ep.graph_module.named_modules():\n"),
        ("isinstance(node.target, (torch._ops.OpOverload,\n"
         "                                                                       torch._ops.HigherOrderOperator)):\n",
         "isinstance(node.target, torch._ops.OperatorBase):\n"),
        ("    return sorted(name for name in aten_ops(ep) if name not in supported)\n",
         "    return sorted(set(aten_ops(ep)) - set(supported))\n")),
    "save_load_impl": edited(
        "15-05", "save_load_impl",
        ("    torch.jit.save(torch.jit.script(model), path)\n",
         "    with open(path, \"wb\") as f:\n"
         "        torch.jit.save(torch.jit.script(model), f)\n"),
        ("    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)\n",
         "    import inspect\n"
         "    name = next(iter(inspect.signature(model.forward).parameters))\n"
         "    ep = torch.export.export(model, (example,), dynamic_shapes={name: {0: batch}})\n"
         "    with open(path, \"wb\") as f:\n"
         "        torch.export.save(ep, f)\n")),
}
