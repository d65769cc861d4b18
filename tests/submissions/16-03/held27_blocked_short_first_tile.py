"""Known-wrong blocked_attention (round 27): the tiles are aligned to the END of the keys: the first tile
holds the S % block_size leftover positions and every later tile block_size (for S = 9 and block_size 4:
positions 0, then 1-4, then 5-8). Every value and gradient is right (the online softmax does not care where
the tiles start) and no tile is larger than block_size. The text: "It reads the keys and values once, in
consecutive tiles of block_size positions (the last tile may be shorter)" (goes wrong on any S that
block_size does not divide: the first tile is the short one)."""
from course.grading.class_run.submissions import edited

CELLS = {"blocked_impl": edited(
    "16-03", "blocked_impl",
    ("    for start in range(0, S, block_size):\n        stop = min(start + block_size, S)",
     "    first = S % block_size or block_size\n"
     "    for start in [0] + list(range(first, S, block_size)):\n"
     "        stop = first if start == 0 else start + block_size"))}
EXPECT = {"blocked": "fail"}
