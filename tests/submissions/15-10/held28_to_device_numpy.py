"""Wrong (held-out round 28): to_device also converts NumPy arrays into tensors on the device. Section 6: every
tensor inside the batch is moved; "leave other values alone". Input: to_device((torch.ones(2), np.arange(3)))
returns a tensor for the NumPy array (expected the very same np.ndarray object)."""
from course.grading.class_run.submissions import edited

EXPECT = {"trainer": "fail"}
CELLS = {"trainer_impl": edited(
    "15-10", "trainer_impl",
    ("        if isinstance(batch, torch.Tensor):\n            return batch.to(self.device)\n",
     "        if isinstance(batch, torch.Tensor):\n            return batch.to(self.device)\n"
     "        if isinstance(batch, np.ndarray):\n            return torch.from_numpy(batch).to(self.device)\n"))}
