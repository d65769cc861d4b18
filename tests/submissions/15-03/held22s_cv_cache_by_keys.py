"""Held-out round 22, second pass (not counted): convert_checkpoint memoises its result in a module-level dict
keyed by the checkpoint's key names, so a second checkpoint with the same keys (any OldNet) gets the first
result back, the very same dict. Contradicts "returns a **new** dict" (and the second checkpoint's values
never arrive)."""

CELLS = {
    "convert_impl": '''
_CONVERTED = {}


def convert_checkpoint(old_state):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    cache_key = tuple(old_state)
    if cache_key in _CONVERTED:
        return _CONVERTED[cache_key]
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.",
               "features.4.": "block2.conv.", "features.5.": "block2.bn.",
               "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        new_key = renames[prefix] + key[len(prefix):]
        if new_key == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        elif new_key == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[new_key] = value
    _CONVERTED[cache_key] = new
    return new
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "fail", "lazy": "pass", "trace": "pass"}
