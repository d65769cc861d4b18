"""Wrong (held-out round 26): validate() runs under torch.inference_mode() ("faster than no_grad") instead of
torch.no_grad(). Section 6: "Validation (validate): in eval() mode and under torch.no_grad()". The difference is
visible: every tensor created during validation is an inference tensor, so a model that caches a tensor lazily on
its first forward (a positional-encoding / RoPE cache, a mask) and meets validation first (trainer.validate()
called before fit, a sanity check) crashes in the next training step with "RuntimeError: Inference tensors
cannot be saved for backward". Input: loss_fn observing torch.is_inference_mode_enabled() during validate(): True
instead of False; or such a caching model: validate() then fit() raises."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        with torch.no_grad():\n            for batch in self.val_loader:\n",
     "        with torch.inference_mode():\n            for batch in self.val_loader:\n"))}
