"""Held-out round 27, a CORRECT answer (written as a wrong one, then found not wrong): the total norm is the norm
of the concatenation of all gradients, `vector_norm(torch.cat([g.flatten() for g in grads]), norm_type)`, not the
norm of the per-tensor norms. The two differ only for norm_type=0 (clip_grad_norm_ counts the gradients with a
non-zero entry, the concatenation the entries), and the text was ambiguous there ("Treat all gradients ... as
one long vector g and compute its norm" against "the norm of the per-tensor norms"); Exercise 4 now says
"`norm_type` a non-zero number", where the two agree (-inf and p < 1 included). Kept as a correct example."""
from course.grading.class_run.submissions import edited

EXPECT = {"label_smoothing": "pass", "nt_xent": "pass", "running_metrics": "pass", "clip_grad_norm": "pass",
          "clip_grad_value": "pass", "ema": "pass"}
CELLS = {"clip_norm_impl": edited(
    "15-04", "clip_norm_impl",
    ("""        per_tensor = [torch.linalg.vector_norm(g.detach(), norm_type) for g in grads]
        total = torch.linalg.vector_norm(torch.stack([t.to(grads[0].device) for t in per_tensor]), norm_type)
""", """        flat = torch.cat([g.detach().flatten().to(grads[0].device) for g in grads])
        total = torch.linalg.vector_norm(flat, norm_type)   # all gradients as one long vector
"""))}
