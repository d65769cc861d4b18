"""Known-wrong NT-Xent (gap round): builds the diagonal mask and the row indices without device=, so they
are CPU tensors: right on CPU, an error for embeddings on a GPU ("on CPU or GPU")."""
from course.grading.class_run.submissions import edited

CELLS = {"nt_xent_impl": edited("15-04", "nt_xent_impl",
    ("eye = torch.eye(2 * n, dtype=torch.bool, device=z.device)", "eye = torch.eye(2 * n, dtype=torch.bool)"),
    ("rows = torch.arange(2 * n, device=z.device)", "rows = torch.arange(2 * n)"))}
EXPECT = {"nt_xent": "fail"}
