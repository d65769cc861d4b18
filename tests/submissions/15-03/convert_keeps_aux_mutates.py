"""Known wrong: edits the caller's dict in place (pop/insert) and forgets to drop the auxiliary head,
so strict loading reports unexpected keys and the old checkpoint is destroyed."""
EXPECT = {"convert": "zero"}

CELLS = {"convert_impl": '''
def convert_checkpoint(old_state):
    renames = {"features.0.": "block1.conv.", "features.1.": "block1.bn.", "features.4.": "block2.conv.",
               "features.5.": "block2.bn.", "classifier.1.": "fc.", "classifier.4.": "out."}
    for key in list(old_state):
        for p, q in renames.items():
            if key.startswith(p):
                old_state[q + key[len(p):]] = old_state.pop(key)
    old_state["fc.weight"] = old_state["fc.weight"].reshape(old_state["fc.weight"].shape[0], -1, 7, 7)
    old_state["out.weight"] = old_state["out.weight"][..., None, None]
    return old_state
'''}
