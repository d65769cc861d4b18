'''Round 24s (found by the new check, not counted): the ensemble cell unusual_correct.py had until round 24. It
stacks `state_dict(keep_vars=True)` of every model and runs a real deep copy of models[0] (not meta) as the
skeleton: a buffer registered with persistent=False is not in a state dict, so functional_call takes it from the
skeleton, and every model runs with models[0]'s buffer: silently wrong values, no error. The text: "the result is
torch.stack([m(x) for m in models])", "Write ensemble_forward ... with torch.func.stack_module_state"; wrong input:
models whose non-persistent buffers differ.'''
EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "pass",
          "ensemble": "fail"}
CELLS = {
    "ensemble_impl": """
def ensemble_forward(models, x, per_model=False):
    names = list(models[0].state_dict(keep_vars=True))
    stacked = {k: torch.stack([m.state_dict(keep_vars=True)[k].detach() for m in models]) for k in names}
    skeleton = copy.deepcopy(models[0])

    def member(state, xb):
        return functional_call(skeleton, state, args=(xb,), tie_weights=False)

    if per_model:
        return vmap(member)(stacked, x)
    return vmap(member, in_dims=(0, None))(stacked, x)
""",
}
