"""Known-wrong zero2_step (held-out round 27): the gradients are flattened with p.grad.view(-1), which only works on
contiguous gradients. The text says "params is a list of leaf tensors ... (0-d, empty and non-contiguous ones
included) ...; each has .grad set to this rank's own gradient" (autograd gives a transposed parameter a transposed
gradient) and "Flatten the gradients into one flat buffer padded as in Exercise 1" (read in row-major order as
reshape(-1) does). Input on which it goes wrong: a parameter torch.randn(3, 4).t() whose .grad is the gradient
backward() accumulates (strides (1, 3)): view(-1) raises."""
from course.grading.class_run.submissions import edited

CELLS = {"zero2_impl": edited("16-04", "zero2_impl", (
    "    flat_grad = torch.cat([flatten_shard([p.grad for p in params], world, r) for r in range(world)])\n",
    "    flat_grad = torch.cat([flatten_shard([p.grad.view(-1) for p in params], world, r) for r in range(world)])\n"))}
EXPECT = {'shard': 'pass', 'zero1': 'pass', 'zero2': 'fail', 'zero3': 'pass', 'schedule': 'pass', 'pipeline': 'pass'}
