"""Known-wrong best fit (round 16): decides which pool a cached free block belongs to from the block's own size
(allocation_pool(blk.size)) instead of its segment's pool. A small segment whose free blocks merged to more than
1 MiB then serves large requests (and no longer small ones); rule 2 says a block is only ever reused by a request
of its own pool."""
from course.grading.class_run.submissions import edited

CELLS = {"allocator_impl": edited(
    "15-07", "allocator_impl",
    ("            if seg.pool != pool:\n                continue\n            for blk in seg.blocks:\n"
     "                if blk.owner is None and blk.size >= size:",
     "            for blk in seg.blocks:\n"
     "                if blk.owner is None and allocation_pool(blk.size) == pool and blk.size >= size:"))}
EXPECT = {"allocator_model": "fail"}
