"""Sums the returned loss in a 0-dim tensor made with torch.zeros(()): the default dtype (float32) and the
default device. For a float64 model the returned loss has only float32 precision (the full batch's loss
is off by ~1e-8 relative); on a GPU model `total += ...` into a CPU tensor fails outright."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail"}
CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl",
                                   ("    total = 0.0\n", "    total = torch.zeros(())\n"),
                                   ("        total += loss.item() * weight\n",
                                    "        total += loss.detach() * weight\n"),
                                   ("    return total\n", "    return total.item()\n"))}
