"""Held-out round 10, written as wrong, judged DEFENSIBLE and kept as a correct example: clip_grad_norm adds up
squared entries in the gradients' own dtype and takes one square root, sqrt(sum(g.pow(2).sum())); for float16
gradients of a few hundred the squares pass float16's 65504 and the total becomes inf, where
torch.nn.utils.clip_grad_norm_ returns the finite norm. But the text never gives clip_grad_norm half-precision
gradients (the Trainer keeps float32 parameters throughout), its formula is the same number in exact
arithmetic, and two earlier correct examples (unusual_correct, unusual_correct_tensor_rng) sum squares the
same way; so no check asks for float16 range here."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"clip_impl": edited(
    "15-10", "clip_impl",
    ("        norms = torch.stack([torch.linalg.vector_norm(g.detach(), 2).to(grads[0].device) for g in grads])\n"
     "        total = torch.linalg.vector_norm(norms, 2)",
     "        total = sum(g.detach().pow(2).sum() for g in grads).sqrt()"))}
