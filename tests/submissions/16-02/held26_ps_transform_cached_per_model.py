"""Round 26: per_sample_grads builds vmap(grad(loss_one)) once per model and keeps it in a dict keyed by the
model (parameters, frozen parameters and buffers are passed in afresh on every call, so an optimizer step or a
change of which parameters are frozen is seen). loss_one closes over the loss_fn of the first call: a second call
on the same model with another loss function reuses the first one. The text: "row `i` is the gradient of
`loss_fn(model(x[i:i+1]), y[i:i+1])`"; wrong input: one model, per_sample_grads(model, F.mse_loss, x, y) then
per_sample_grads(model, F.l1_loss, x, y) (the second answer is the mse gradients)."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited("16-02", "per_sample_impl", (
    "    def loss_one(params, xi, yi):\n"
    "        out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n"
    "        return loss_fn(out, yi.unsqueeze(0))\n\n"
    "    return vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)\n",
    "    if model not in _TRANSFORMS:\n"
    "        def loss_one(params, frozen, buffers, xi, yi):\n"
    "            out = functional_call(model, (params, frozen, buffers), (xi.unsqueeze(0),))\n"
    "            return loss_fn(out, yi.unsqueeze(0))\n\n"
    "        _TRANSFORMS[model] = vmap(grad(loss_one), in_dims=(None, None, None, 0, 0))\n"
    "    return _TRANSFORMS[model](params, frozen, buffers, x, y)\n"), (
    "def per_sample_grads(model, loss_fn, x, y):", "_TRANSFORMS = {}\n\n\ndef per_sample_grads(model, loss_fn, x, y):"))}
