"""Round 22s (written after reading the checks, not counted): per_sample_grads keeps vmap(grad(loss_one)) in a
module-level dict keyed by id(model) and the names of the parameters that require grad (so a change of which are
frozen builds a new one); parameters and buffers are read afresh, but loss_one closes over the first call's
loss_fn. A second call with the same trainable names and another loss_fn differentiates the old loss. The text:
"row i is the gradient of loss_fn(model(x[i:i+1]), y[i:i+1])"."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    def loss_one(params, xi, yi):\n"
    "        out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n"
    "        return loss_fn(out, yi.unsqueeze(0))\n\n"
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)",
    "    cache = globals().setdefault(\"_PS_TRANSFORMS\", {})\n"
    "    key = (id(model), tuple(params))\n"
    "    if key not in cache:\n"
    "        def loss_one(params, frozen, buffers, xi, yi):\n"
    "            out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n"
    "            return loss_fn(out, yi.unsqueeze(0))\n\n"
    "        cache[key] = vmap(grad(loss_one), in_dims=(None, None, None, 0, 0))\n"
    "    return cache[key](params, frozen, buffers, x, y)"))}
