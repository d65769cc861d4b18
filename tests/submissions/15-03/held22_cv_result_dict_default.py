"""Held-out round 22 (issue 39): convert_checkpoint fills a dict given as a mutable default argument, so every
call returns the SAME dict object: converting a second checkpoint overwrites the tensors of the first result
(and a result converted from different sizes is replaced behind the caller's back). Contradicts "returns a
**new** dict"."""

CELLS = {
    "convert_impl": '''
def convert_checkpoint(old_state, _new={}):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.",
               "features.4.": "block2.conv.", "features.5.": "block2.bn.",
               "classifier.1.": "fc.", "classifier.4.": "out."}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        new_key = renames[prefix] + key[len(prefix):]
        if new_key == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        elif new_key == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        _new[new_key] = value
    return _new
''',
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "fail", "lazy": "pass", "trace": "pass"}
