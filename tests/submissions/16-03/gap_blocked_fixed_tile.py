"""Gap round (issue 39), "It reads the keys and values in consecutive tiles of block_size positions": tiles of at
least 16 keys whatever block_size says ("fewer, larger matmuls"); the values are right and no tile reaches L * S
in the memory check, but a tile is up to 16 / block_size times larger than asked."""
from course.grading.class_run.submissions import edited

EXPECT = {"blocked": "fail"}
CELLS = {"blocked_impl": edited("16-03", "blocked_impl", (
    "for start in range(0, S, block_size):\n        stop = min(start + block_size, S)",
    "tile = max(block_size, 16)\n    for start in range(0, S, tile):\n        stop = min(start + tile, S)"))}
