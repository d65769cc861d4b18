"""convert_checkpoint casts floating tensors with .float(). Breaks 'keep dtypes as they are' for a float64 checkpoint."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'fail', 'lazy': 'pass', 'trace': 'pass'}

CELLS = {
    'convert_impl': '''
def convert_checkpoint(old_state):
    mapping = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    new = {}
    for k, v in old_state.items():
        if k.startswith("aux."):
            continue
        nk = next(b + k[len(a):] for a, b in mapping.items() if k.startswith(a))
        v = v.float() if v.is_floating_point() else v.clone()
        if nk == "fc.weight":
            v = v.reshape(v.shape[0], v.shape[1] // 49, 7, 7)
        elif nk == "out.weight":
            v = v.reshape(v.shape[0], v.shape[1], 1, 1)
        new[nk] = v
    return new
''',
}
