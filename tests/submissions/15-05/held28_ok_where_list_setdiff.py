"""Held-out round 28, a CORRECT answer written unusually: CondBranchyNet selects with the branch-free
`torch.where(x.mean() > 0.5, 1.0 - x, x)` (the notebook allows "an equivalent branch-free formula": a 0-dim boolean
condition broadcast over the batch; the NaN mean of an empty batch is not above one half, so the batch is kept;
the result keeps x's dtype and device); export_dynamic_batch and save_exported give `dynamic_shapes` as a list with one
entry per positional argument (a list is accepted like the tuple of the hint); unsupported_ops is the sorted set
difference `sorted(set(aten_ops(ep)).difference(supported))`. Every check must pass."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {
    "cond_net_impl": edited(
        "15-05", "cond_net_impl",
        ("        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n",
         "        x = torch.where(x.mean() > 0.5, 1.0 - x, x)\n")),
    "export_dynamic_impl": edited(
        "15-05", "export_dynamic_impl",
        ("dynamic_shapes=({0: batch},))", "dynamic_shapes=[{0: batch}])")),
    "op_inventory_impl": edited(
        "15-05", "op_inventory_impl",
        ("    return sorted(name for name in aten_ops(ep) if name not in supported)\n",
         "    return sorted(set(aten_ops(ep)).difference(supported))\n")),
    "save_load_impl": edited(
        "15-05", "save_load_impl",
        ("dynamic_shapes=({0: batch},))", "dynamic_shapes=[{0: batch}])")),
}
