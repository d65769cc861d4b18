"""ring_all_reduce returns x itself for an empty x (an early return for the trivial case), though the text
asks for a new tensor; every other input goes round the ring as in the reference."""
EXPECT = {"ring_all_reduce": "fail"}
CELLS = {
    "ring_all_reduce_impl": '''
def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:
    if x.numel() == 0:
        return x  # nothing to sum
    rank, world = dist.get_rank(), dist.get_world_size()
    flat = x.reshape(-1).clone()
    chunks = list(torch.tensor_split(flat, world))  # views of flat
    right, left = (rank + 1) % world, (rank - 1) % world
    for s in range(world - 1):  # reduce-scatter
        out_idx, in_idx = (rank - s) % world, (rank - s - 1) % world
        incoming = torch.empty_like(chunks[in_idx])
        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(incoming, left)]
        for req in reqs:
            req.wait()
        chunks[in_idx].add_(incoming)
    for s in range(world - 1):  # all-gather
        out_idx, in_idx = (rank + 1 - s) % world, (rank - s) % world
        reqs = [dist.isend(chunks[out_idx], right), dist.irecv(chunks[in_idx], left)]
        for req in reqs:
            req.wait()
    return flat.view(x.shape)
''',
}
