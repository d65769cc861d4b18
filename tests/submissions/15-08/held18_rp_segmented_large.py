"""Wrong: "Each rank sends exactly one message, of `x.numel()` elements, and calls no collective." This
version cuts a large x into messages of at most 16384 elements ("no single huge message"), so a tensor of
more than 16384 elements goes out as several messages. The values that arrive are right."""
EXPECT = {"ring_pass": "fail"}
CELLS = {"ring_pass_impl": '''
def ring_pass(x: torch.Tensor) -> torch.Tensor:
    rank, world = dist.get_rank(), dist.get_world_size()
    outgoing = x.contiguous().view(-1)
    incoming = torch.empty_like(outgoing)
    right, left = (rank + 1) % world, (rank - 1) % world
    seg = 16384
    for i in range(0, outgoing.numel(), seg) or [0]:
        out_piece, in_piece = outgoing[i:i + seg], incoming[i:i + seg]
        if rank % 2 == 0:
            dist.send(out_piece, right)
            dist.recv(in_piece, left)
        else:
            dist.recv(in_piece, left)
            dist.send(out_piece, right)
    return incoming.view(x.shape)
'''}
