"""Known wrong: renames and reshapes correctly but iterates over parameter-like keys only, dropping the
BatchNorm running statistics; and, to make loading "work", it would need strict=False."""
EXPECT = {"convert": "fail"}

CELLS = {"convert_impl": '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux.") or "running_" in key or "num_batches" in key:
            continue
        prefix = next(p for p in renames if key.startswith(p))
        nk = renames[prefix] + key[len(prefix):]
        if nk == "fc.weight":
            value = value.reshape(value.shape[0], -1, 7, 7)
        if nk == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[nk] = value
    return new
'''}
