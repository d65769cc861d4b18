"""ring_all_reduce returns x itself for an empty x (an early return for the trivial case), though the text
asks for a new tensor; every other input goes round the ring as in the reference."""
from course.grading.class_run.submissions import edited

EXPECT = {"ring_all_reduce": "fail"}
CELLS = {
    "ring_all_reduce_impl": edited("15-08", "ring_all_reduce_impl",
    ('def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:\n',
     ('def ring_all_reduce(x: torch.Tensor) -> torch.Tensor:\n'
      '    if x.numel() == 0:\n'
      '        return x  # nothing to sum\n'))),
}
