"""Correct but unusual: tree_broadcast along the other binomial tree. Relative rank v receives from
v - h, h the HIGHEST set bit of v, and sends to v + m for every power of two m > h with v + m < N, smallest
first. Each hop adds one bit, so no rank is more than ceil(log2 N) hops away, the root sends ceil(log2 N)
messages and every other rank fewer; every rank but src receives exactly once."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_pass": "pass", "ring_all_reduce": "pass", "tree_broadcast": "pass", "shards": "pass", "group_sums": "pass"}
CELLS = {"tree_broadcast_impl": edited(
    "15-08", "tree_broadcast_impl",
    ("""    mask = 1
    while mask < world:
        if v & mask:
            dist.recv(x, (v - mask + src) % world)
            break
        mask <<= 1
    mask >>= 1
    while mask > 0:
        if v + mask < world:
            dist.send(x, (v + mask + src) % world)
        mask >>= 1
""", """    high = 1 << (v.bit_length() - 1) if v else 0
    if v:
        dist.recv(x, (v - high + src) % world)
    m = 2 * high if v else 1
    while v + m < world:
        dist.send(x, (v + m + src) % world)
        m <<= 1
"""))}
