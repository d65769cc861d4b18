"""Held-out round 26 (issue 39): convert_checkpoint drops the `num_batches_tracked` counters ("only a
counter, eval mode never reads it"). Because the returned plain dict carries no `_metadata`, BatchNorm's
loader treats it as a version-1 checkpoint and fills the missing counter itself, so
`NewNet(...).load_state_dict(result, strict=True)` still succeeds and the eval outputs agree; but the
counters of a trained OldNet (e.g. num_batches_tracked = 300) do not arrive (the new model has 0), and
`result` lacks two keys. Contradicts: "Rename every parameter *and buffer*"."""
from course.grading.class_run.submissions import edited

CELLS = {
    "convert_impl": edited(
        "15-03", "convert_impl",
        ('        if key.startswith("aux."):', '        if key.startswith("aux.") or key.endswith("num_batches_tracked"):'),
    ),
}
EXPECT = {"skipmlp": "pass", "param_groups": "pass", "convert": "fail", "lazy": "pass", "trace": "pass"}
