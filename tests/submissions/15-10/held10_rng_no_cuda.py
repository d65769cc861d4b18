"""Held-out round 10: capture_rng_state and restore_rng_state handle torch's CPU generator, NumPy and Python,
but not the CUDA generators. The text lists four places a step draws from, "one generator per CUDA device"
among them, with torch.cuda.get_rng_state_all / set_rng_state_all (only if CUDA is available)."""
from course.grading.class_run.submissions import edited

EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "fail", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
EXPECT_GPU = {"resume": "fail"}  # on a GPU the resumed run's dropout masks differ too
CELLS = {"rng_impl": edited(
    "15-10", "rng_impl",
    ("    if torch.cuda.is_available():\n        state[\"cuda\"] = torch.cuda.get_rng_state_all()\n", ""),
    ("    if \"cuda\" in state and torch.cuda.is_available():\n        torch.cuda.set_rng_state_all(state[\"cuda\"])\n",
     ""))}
