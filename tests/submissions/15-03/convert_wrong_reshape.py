"""Known wrong: the Linear weight is reshaped as if flatten were channel-last ((H, 7, 7, C) then
permuted): every key and shape is right and strict loading succeeds, but the outputs differ. Also
hard-codes 16 channels, which fails for other OldNet sizes."""
EXPECT = {"convert": "fail"}

CELLS = {"convert_impl": '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for key, value in old_state.items():
        if key.startswith("aux."):
            continue
        prefix = next(p for p in renames if key.startswith(p))
        nk = renames[prefix] + key[len(prefix):]
        if nk == "fc.weight":
            value = value.reshape(value.shape[0], 7, 7, 16).permute(0, 3, 1, 2)
        if nk == "out.weight":
            value = value.reshape(*value.shape, 1, 1)
        new[nk] = value
    return new
'''}
