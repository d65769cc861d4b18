"""Gap-hunting round (issue 39, 2026-12-02): segment_size compares the *requested* size with 10 MiB, so a request
just under 10 MiB whose rounded size is exactly 10 MiB gets a 20 MiB segment instead of its own 10 MiB one.
Breaks: "All three functions take the *requested* size `nbytes` ... and must apply the rounding themselves" and
rule 3's "rounded size of 10 MiB or more"."""
CELLS = {"size_rules_impl": '''
KiB = 1024
MiB = 1024 * KiB
MIN_BLOCK = 512            # kMinBlockSize: every block is a multiple of this
SMALL_SIZE = 1 * MiB       # kSmallSize: largest rounded size served by the small pool
SMALL_BUFFER = 2 * MiB     # kSmallBuffer: size of a small-pool segment
LARGE_BUFFER = 20 * MiB    # kLargeBuffer: segment for large requests below MIN_LARGE_ALLOC
MIN_LARGE_ALLOC = 10 * MiB  # kMinLargeAlloc
ROUND_LARGE = 2 * MiB      # kRoundLarge: bigger requests get their own segment, rounded to this


def round_size(nbytes: int) -> int:
    """Block size for a request of nbytes (>= 1): rounded up to a multiple of 512, at least 512."""
    return max(MIN_BLOCK, -(-nbytes // MIN_BLOCK) * MIN_BLOCK)


def allocation_pool(nbytes: int) -> str:
    """'small' if the rounded size is at most 1 MiB, else 'large'."""
    return "small" if round_size(nbytes) <= SMALL_SIZE else "large"


def segment_size(nbytes: int) -> int:
    """Size of the new segment (one cudaMalloc) a request of nbytes creates when nothing cached fits."""
    if allocation_pool(nbytes) == "small":
        return SMALL_BUFFER
    if nbytes < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return -(-round_size(nbytes) // ROUND_LARGE) * ROUND_LARGE
'''}
EXPECT = {"size_rules": "fail"}
