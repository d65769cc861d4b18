"""Round 22: per_sample_grads builds vmap(grad(loss_one)) once per model and keeps it in a module-level dict
keyed by id(model) ("the transform is the slow part"); parameters, frozen ones and buffers are read afresh on
every call, but loss_one closes over the loss_fn of the first call. A second call on the same model with
another loss_fn (or a new model that reuses a freed model's id) differentiates the old loss. The text: "row i
is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1])" (the loss_fn of this call)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    def loss_one(params, xi, yi):\n"
    "        out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n"
    "        return loss_fn(out, yi.unsqueeze(0))\n\n"
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)",
    "    cache = globals().setdefault(\"_PSG_CACHE\", {})\n"
    "    if id(model) not in cache:\n"
    "        def loss_one(params, frozen, buffers, xi, yi):\n"
    "            out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n"
    "            return loss_fn(out, yi.unsqueeze(0))\n\n"
    "        cache[id(model)] = vmap(grad(loss_one), in_dims=(None, None, None, 0, 0))\n"
    "    return cache[id(model)](params, frozen, buffers, x, y)"))}
