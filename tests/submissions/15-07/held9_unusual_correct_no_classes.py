'''Held-out round 9, a correct answer written unusually: no classes at all, as the text allows ("You may
restructure everything (other data structures, no classes at all) as long as simulate keeps its contract").
Each segment is a dict {offset: [size, owner]} kept in creation order, with a tuple key for best fit and a
sorted scan of offsets for the merges; ownership is tracked in a separate set, so names like '' or 0 are safe.'''

EXPECT = {"size_rules": "pass", "allocator_model": "pass", "empty_cache": "pass", "oom_diagnosis": "pass",
          "cuda_timing": "pass"}
CELLS = {"allocator_impl": '''
def simulate(trace):
    """Statistics after each op; ops ("alloc", name, nbytes), ("free", name), ("empty_cache",)."""
    segs = []        # [sid, pool, size, {offset: [size, busy]}] in creation order
    where = {}       # name -> (segment, offset) or None for a 0-byte tensor
    sids = iter(range(10**9))
    out = []

    def neighbours(blocks, off):
        offs = sorted(blocks)
        i = offs.index(off)
        return (offs[i - 1] if i else None), (offs[i + 1] if i + 1 < len(offs) else None)

    for op in trace:
        kind = op[0]
        if kind == "alloc":
            name, nbytes = op[1], op[2]
            if nbytes == 0:
                where[name] = None
            else:
                need, pool = round_size(nbytes), allocation_pool(nbytes)
                fits = [(blk[0], seg[0], off, seg) for seg in segs if seg[1] == pool
                        for off, blk in seg[3].items() if not blk[1] and blk[0] >= need]
                if fits:
                    *_, off, seg = min(fits, key=lambda f: f[:3])
                else:
                    size = segment_size(nbytes)
                    seg = [next(sids), pool, size, {0: [size, False]}]
                    segs.append(seg)
                    off = 0
                blk = seg[3][off]
                rest = blk[0] - need
                if (rest >= 512) if pool == "small" else (rest > 1024 * 1024):
                    seg[3][off + need] = [rest, False]
                    blk[0] = need
                blk[1] = True
                where[name] = (seg, off)
        elif kind == "free":
            hit = where.pop(op[1])
            if hit is not None:
                seg, off = hit
                blocks = seg[3]
                blocks[off][1] = False
                prev, nxt = neighbours(blocks, off)
                if nxt is not None and not blocks[nxt][1]:
                    blocks[off][0] += blocks.pop(nxt)[0]
                if prev is not None and not blocks[prev][1]:
                    blocks[prev][0] += blocks.pop(off)[0]
        elif kind == "empty_cache":
            segs[:] = [s for s in segs if len(s[3]) > 1 or next(iter(s[3].values()))[1]]
        else:
            raise ValueError(f"unknown op {op!r}")
        out.append({"allocated": sum(b[0] for s in segs for b in s[3].values() if b[1]),
                    "reserved": sum(s[2] for s in segs),
                    "small_segments": sum(s[1] == "small" for s in segs),
                    "large_segments": sum(s[1] == "large" for s in segs)})
    return out
'''}
