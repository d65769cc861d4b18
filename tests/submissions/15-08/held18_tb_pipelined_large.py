"""Wrong: "Every rank except `src` receives exactly one message (the whole tensor), and `src` receives none."
This version pipelines big tensors down the tree in segments of 16384 elements (a real technique for large
broadcasts), so for a tensor of more than 16384 elements every non-root rank receives several messages,
none of them the whole tensor. Small tensors still go as one message."""
EXPECT = {"tree_broadcast": "fail"}
CELLS = {"tree_broadcast_impl": '''
def tree_broadcast(x: torch.Tensor, src: int) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    v = (rank - src) % world
    flat = x.view(-1)
    seg = 16384  # pipeline big tensors: 64 KiB of float32 per message
    pieces = [flat[i:i + seg] for i in range(0, flat.numel(), seg)] if flat.numel() > seg else [flat]
    for piece in pieces:
        mask = 1
        while mask < world:
            if v & mask:
                dist.recv(piece, (v - mask + src) % world)
                break
            mask <<= 1
        mask >>= 1
        while mask > 0:
            if v + mask < world:
                dist.send(piece, (v + mask + src) % world)
            mask >>= 1
    return x
'''}
