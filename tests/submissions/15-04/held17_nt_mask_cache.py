"""Held-out round 17: the self-similarity mask is built once per batch size and kept in a module-level cache
keyed by N (as SimCLR code builds it once in __init__); the device it was first built on is not part of the
key, so a later call with the same N on another device masks with a tensor on the wrong device. The text:
"Handle any `N >= 1` ... on CPU or GPU"."""
from course.grading.class_run.submissions import edited

EXPECT = {"nt_xent": "fail"}
CELLS = {"nt_xent_impl": "_SELF_MASKS = {}\n\n\n" + edited(
    "15-04", "nt_xent_impl",
    ("    eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)\n",
     "    if n not in _SELF_MASKS:                      # built once per batch size\n"
     "        _SELF_MASKS[n] = torch.eye(2 * n, dtype=torch.bool, device=z.device)\n"
     "    eye = _SELF_MASKS[n]\n"))}
