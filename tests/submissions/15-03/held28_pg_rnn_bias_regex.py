"""Held-out round 28 (15-03 param_groups): recognises recurrent biases by the regex bias_(ih|hh)_l<k> only.

The text: "biases (`bias`, and also the ones recurrent and attention layers name `bias_ih_l0`, `bias_hh_l0`,
`in_proj_bias`) ... get weight_decay=0.0". This version matches the leaf name against
`bias|bias_(ih|hh)_l\\d+|in_proj_bias` exactly, so the biases of a bidirectional nn.LSTM/GRU
(`bias_ih_l0_reverse`, `bias_hh_l0_reverse`) and of nn.LSTMCell/GRUCell/RNNCell (`bias_ih`, `bias_hh`) get
the full weight_decay. Wrong on e.g. nn.LSTM(3, 4, bidirectional=True) or a model holding nn.LSTMCell(3, 4).
"""
from course.grading.class_run.submissions import edited

EXPECT = {"param_groups": "fail"}

CELLS = {
    "param_groups_impl": edited(
        "15-03", "param_groups_impl",
        ('        no_decay = leaf == "bias" or leaf.startswith("bias_") or leaf.endswith("_bias") or id(p) in norm_params\n',
         '        no_decay = __import__("re").fullmatch(r"bias|bias_(ih|hh)_l\\d+|in_proj_bias", leaf) is not None \\\n'
         '            or id(p) in norm_params\n')),
}
