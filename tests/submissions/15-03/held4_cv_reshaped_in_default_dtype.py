"""Breaks: "reshape the two classifier weights ... and keep dtypes as they are" for a float64 checkpoint.

The two reshaped classifier weights are built with torch.empty(shape) (the default dtype, float32)
and filled with copy_. For a float32 checkpoint nothing changes; a float64 checkpoint comes back with
float32 weights for fc and out, rounded to float32 precision (load_state_dict casts them back, so the
outputs differ only by float32 rounding).
"""
EXPECT = {"convert": "fail"}

CELLS = {
    "convert_impl": '''
def convert_checkpoint(old_state):
    """OldNet state_dict -> NewNet state_dict (renamed, aux head dropped, classifier reshaped to convs)."""
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.",
               "features.4.": "block2.conv.", "features.5.": "block2.bn.",
               "classifier.1.": "fc.", "classifier.4.": "out."}
    hidden, flat = old_state["classifier.1.weight"].shape
    c2 = flat // 49
    classes = old_state["classifier.4.weight"].shape[0]
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        new_key = renames[prefix] + key[len(prefix):]
        if key == "classifier.1.weight":
            value = torch.empty(hidden, c2, 7, 7).copy_(value.reshape(hidden, c2, 7, 7))
        elif key == "classifier.4.weight":
            value = torch.empty(classes, hidden, 1, 1).copy_(value.reshape(classes, hidden, 1, 1))
        new[new_key] = value
    return new
''',
}
