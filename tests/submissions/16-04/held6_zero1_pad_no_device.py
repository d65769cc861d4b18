"""Wrong: "Make every tensor you create on the parameters' device: the same code runs with NCCL, where the
parameters live on cuda:rank." After the all-reduce this zero1_step pads the averaged gradient with
torch.zeros(pad, dtype=...) and no device, so on cuda:rank torch.cat mixes a CUDA and a CPU tensor and
raises. The padding is neither a collective's buffer nor kept in state."""
from course.grading.class_run.submissions import edited

EXPECT = {"zero1": "fail"}
CELLS = {"zero1_impl": edited("16-04", "zero1_impl", ("    g = flatten_shard([grad], world, rank)\n", '''\
    grad = torch.cat([grad, torch.zeros(world * k - grad.numel(), dtype=grad.dtype)])
    g = grad[rank * k:(rank + 1) * k]
'''))}
