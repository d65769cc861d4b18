"""Wrong: "every class *present* in `targets` is drawn equally often in expectation" for any `num_samples`
(and the text: "Sampling must be *with replacement*"). This version samples with replacement only when
`num_samples >= N` and without replacement otherwise: with fewer draws than samples a rare class can be
drawn at most as often as it has members, so a 95/5 split drawn N/2 times is far from balanced."""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("replacement=True, generator=generator)",
     "replacement=num_samples >= len(weights),\n"
     "                                 generator=generator)"))}
