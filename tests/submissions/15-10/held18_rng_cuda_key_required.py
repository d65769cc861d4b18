"""Known-wrong restore_rng_state (round 18): restores the CUDA generators whenever CUDA is available,
reading state["cuda"] unconditionally. A snapshot taken on a CPU-only machine (no "cuda" key) restored
on a GPU machine raises KeyError: against "CUDA: ... (only if CUDA is available)" at capture time and the
text's own case of "the same run resumed on a GPU"."""
from course.grading.class_run.submissions import edited

CELLS = {"rng_impl": edited("15-10", "rng_impl", (
    "if \"cuda\" in state and torch.cuda.is_available():",
    "if torch.cuda.is_available():"))}
EXPECT = {"rng": "fail"}
