"""Correct, written unusually: ring_pass with non-blocking calls, the receive posted first into a buffer
made by `x.new_empty(x.shape)`, and the outgoing copy made by `x.clone(memory_format=torch.contiguous_format)`
(always a private copy, even for a contiguous `x`); both requests are waited on before returning."""

EXPECT = {"ring_pass": "pass"}
CELLS = {"ring_pass_impl": '''def ring_pass(x: torch.Tensor) -> torch.Tensor:
    ### BEGIN SOLUTION
    rank, world = dist.get_rank(), dist.get_world_size()
    inbox = x.new_empty(x.shape)
    parcel = x.clone(memory_format=torch.contiguous_format)
    pending = [dist.irecv(inbox, (rank + world - 1) % world), dist.isend(parcel, (rank + 1) % world)]
    while pending:
        pending.pop().wait()
    return inbox
    ### END SOLUTION
'''}
