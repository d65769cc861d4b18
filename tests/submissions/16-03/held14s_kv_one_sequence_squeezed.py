"""Known-wrong CausalSelfAttention (round 14s, the cache's layout read at B = 2 only): when one sequence is
decoded (B = 1) the cache is given the keys and values without their batch dimension, (H, T, D), which
attention broadcasts back; every output is right, but cache.k and cache.v are (H, positions, D), where the
text says (B, H, len(cache), D)."""
from course.grading.class_run.submissions import edited

CELLS = {"kv_impl": edited(
    "16-03", "kv_impl",
    ("            k, v = cache.update(k, v)",
     "            if b == 1:  # one sequence (generation): the cache keeps (H, T, D)\n"
     "                k, v = cache.update(k[0], v[0])\n"
     "            else:\n"
     "                k, v = cache.update(k, v)"))}
EXPECT = {"kv_cache": "fail"}
