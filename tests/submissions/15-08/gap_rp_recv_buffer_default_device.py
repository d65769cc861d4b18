"""Gap-hunting round (issue 39, 2026-12-02): ring_pass receives into `torch.empty(x.shape, dtype=x.dtype)`, made on the default device (the CPU)
whatever x's device: with NCCL, x on cuda:rank, recv into a CPU tensor fails. Breaks: "The same code runs
unchanged with the NCCL backend on CUDA tensors" and "Return a new tensor with the shape, dtype and values of
the left neighbour's x" (a tensor like x, on x's device)."""
CELLS = {'ring_pass_impl': '\ndef ring_pass(x: torch.Tensor) -> torch.Tensor:\n    rank, n = dist.get_rank(), dist.get_world_size()\n    send = x.contiguous()\n    out = torch.empty(x.shape, dtype=x.dtype)\n    if rank % 2 == 0:\n        dist.send(send, (rank + 1) % n)\n        dist.recv(out, (rank - 1) % n)\n    else:\n        dist.recv(out, (rank - 1) % n)\n        dist.send(send, (rank + 1) % n)\n    return out\n'}
EXPECT = {'ring_pass': "fail"}
