"""Correct for every task; only convert differs from the reference: regex renames, the classifier weights reshaped with view / [:, :, None, None], and no copies at all (the new dict's tensors share storage with the old ones, which the text allows: it asks for a new dict and an untouched old_state, not for copied tensors). Kept so that no check starts demanding copies. From the third blind round (issue #19)."""
EXPECT = {'skipmlp': 'pass', 'param_groups': 'pass', 'convert': 'pass', 'lazy': 'pass', 'trace': 'pass'}

CELLS = {
    'convert_impl': '''
import re

_RULES = [(r"^features\\.0\\.", "block1.conv."), (r"^features\\.1\\.", "block1.bn."),
          (r"^features\\.4\\.", "block2.conv."), (r"^features\\.5\\.", "block2.bn."),
          (r"^classifier\\.1\\.", "fc."), (r"^classifier\\.4\\.", "out.")]


def convert_checkpoint(old_state):
    out = {}
    for k, v in old_state.items():
        if k.startswith("aux."):
            continue
        nk = k
        for pat, rep in _RULES:
            nk, n = re.subn(pat, rep, nk)
            if n:
                break
        if nk == "fc.weight":
            hidden, flat = v.shape
            v = v.view(hidden, flat // 49, 7, 7)
        elif nk == "out.weight":
            v = v[:, :, None, None]
        out[nk] = v
    return out
''',
}
