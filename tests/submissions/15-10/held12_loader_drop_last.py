"""Known-wrong make_loader (held-out round 12): drop_last=True ("equal batch sizes are nicer for
accumulation"), so the samples of an incomplete last batch are never seen. The text: make_loader builds
"a single-process DataLoader over dataset" with the sampler's order, batched; nothing is dropped."""
from course.grading.class_run.submissions import edited

CELLS = {"sampler_impl": edited("15-10", "sampler_impl", (
    "    return DataLoader(dataset, batch_size=batch_size, num_workers=0,",
    "    return DataLoader(dataset, batch_size=batch_size, num_workers=0, drop_last=True,"))}
EXPECT = {"sampler": "fail"}
