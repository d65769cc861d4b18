"""Wrong: "Implement ... `make_balanced_sampler(targets, num_samples, generator=None)`" (the notebook's own demo
calls it as `make_balanced_sampler(imb_targets, len(imb_targets), torch.Generator().manual_seed(0))`, the
generator by position). This version adds an option and puts it before `generator`:
`make_balanced_sampler(targets, num_samples, replacement=True, generator=None)`. Every call that names
`generator=` works; a call that passes the generator as the third argument hands it to `replacement`, and
WeightedRandomSampler refuses a non-bool replacement (ValueError), so the demo's call fails."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "pass", "balanced": "fail", "collate": "pass", "packed_rnn": "pass", "stream": "pass"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("def make_balanced_sampler(targets, num_samples, generator=None):\n",
     "def make_balanced_sampler(targets, num_samples, replacement=True, generator=None):\n"),
    ("replacement=True, generator=generator)", "replacement=replacement, generator=generator)"))}
