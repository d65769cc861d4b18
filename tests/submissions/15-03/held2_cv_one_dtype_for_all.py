"""Held-out round 2 (15-03 convert): every tensor cast to the checkpoint's weight dtype "to keep dtypes".

Loading succeeds (load_state_dict copies a float count into the int64 buffer) and predictions agree,
but each BatchNorm's num_batches_tracked arrives in the dict as a float tensor: the text says keep dtypes
as they are.
"""
EXPECT = {'convert': 'fail'}

CELLS = {
    'convert_impl': '''
_RENAME = {"features.0.": "block1.conv.", "features.1.": "block1.bn.",
           "features.4.": "block2.conv.", "features.5.": "block2.bn.",
           "classifier.1.": "fc.", "classifier.4.": "out."}


def convert_checkpoint(old_state):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    hidden, flat = old_state["classifier.1.weight"].shape
    c2 = flat // 49
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in _RENAME if key.startswith(p))
        name = _RENAME[prefix] + key[len(prefix):]
        if name == "fc.weight":
            value = value.reshape(hidden, c2, 7, 7)
        elif name == "out.weight":
            value = value.reshape(value.shape[0], value.shape[1], 1, 1)
        new[name] = value.clone().to(old_state["features.0.weight"].dtype)
    return new
''',
}
