"""Gap-hunting round (issue 39, 2026-12-01): make_balanced_sampler draws its num_samples indices once (torch.multinomial with the generator) and returns that list: every epoch repeats the same draws. Breaks: "a sampler yielding num_samples indices ... drawn reproducibly from generator" (every pass draws again, as WeightedRandomSampler does)."""
from course.grading.class_run.submissions import edited

CELLS = {"balanced_impl": edited("15-02", "balanced_impl", ('    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)', '    return torch.multinomial(weights, num_samples, replacement=True, generator=generator).tolist()'))}
EXPECT = {"balanced": "fail"}
