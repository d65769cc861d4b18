"""Held-out round 11: per_sample_grads remembers, per model, which parameters were trainable at its first call
(a cache keyed by the model, "the hot path of a training loop") and reuses that list. After the caller
freezes or unfreezes a layer (as fine-tuning does between phases), the next call still returns entries for
the old set: a frozen parameter keeps an entry and an unfrozen one gets none. The text says "one entry per
parameter that requires grad (... frozen ones left out)", which is the model's state at the call."""
from course.grading.class_run.submissions import edited

EXPECT = {"silu": "pass", "dual_jvp": "pass", "jacobian": "pass", "hvp": "pass", "per_sample": "fail",
          "ensemble": "pass"}
CELLS = {"per_sample_impl": edited(
    "16-02", "per_sample_impl",
    ("    params = {k: p.detach() for k, p in model.named_parameters() if p.requires_grad}\n"
     "    frozen = {k: p.detach() for k, p in model.named_parameters() if not p.requires_grad}",
     "    cache = per_sample_grads.__dict__.setdefault(\"trainable\", {})\n"
     "    if id(model) not in cache:  # the model is kept in the cache, so its id is not reused\n"
     "        cache[id(model)] = (model, {k for k, p in model.named_parameters() if p.requires_grad})\n"
     "    names = cache[id(model)][1]\n"
     "    params = {k: p.detach() for k, p in model.named_parameters() if k in names}\n"
     "    frozen = {k: p.detach() for k, p in model.named_parameters() if k not in names}"))}
