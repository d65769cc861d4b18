"""Held-out round 9: the conversion builds a fresh NewNet of the sizes read from the tensors and copies
each old tensor into its state_dict, so every tensor comes back in NewNet's default dtype (float32): a
float64 checkpoint loses precision and changes dtype. The text: "keep dtypes as they are"."""

EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "fail", "lazy": "pass", "trace": "pass"}
CELLS = {"convert_impl": '''
def convert_checkpoint(old_state):
    """Fill a fresh NewNet's state_dict with the old tensors, renamed and reshaped."""
    c1 = old_state["features.0.weight"].shape[0]
    c2 = old_state["features.4.weight"].shape[0]
    hidden, k = old_state["classifier.4.weight"].shape[1], old_state["classifier.4.weight"].shape[0]
    target = NewNet(c1, c2, hidden, k).state_dict()
    names = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
             "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    for key, value in old_state.items():
        for old, new in names.items():
            if key.startswith(old):
                slot = target[new + key[len(old):]]
                slot.copy_(value.reshape(slot.shape))
    return dict(target)
'''}
