"""Held-out gap-hunting round 5 (issue 39): breaks "Along the messages, no rank is more than ⌈log2 N⌉ hops
from src" (and "along a binomial tree"). The root starts two chains, relative ranks 1, 3, 5, ... and 2, 4, 6,
..., each rank forwarding to v + 2: every rank receives once and no rank sends more than twice, and up to 7
ranks the depth ceil((N-1)/2) stays within ceil(log2 N); on 8 ranks relative rank 7 is 4 hops away, over 3."""
import runpy
from pathlib import Path

edit = runpy.run_path(str(Path(__file__).with_name("_held5.py")))["edit"]
EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": edit("tree_broadcast_impl", (
    '''    lo, hi = 0, n
    while hi - lo > 1:
        mid = lo + (hi - lo + 1) // 2
        if me == lo:
            dist.send(x, (mid + src) % n)
        elif me == mid:
            dist.recv(x, (lo + src) % n)
        if me < mid:
            hi = mid
        else:
            lo = mid
''',
    '''    if me:
        dist.recv(x, (max(me - 2, 0) + src) % n)
    for child in ([1, 2] if me == 0 else [me + 2]):
        if child < n:
            dist.send(x, (child + src) % n)
'''))}
