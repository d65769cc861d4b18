"""Wrong: "`make_balanced_sampler(targets, num_samples, generator=None)`": the generator is optional. This version
copies the caller's generator (`g.set_state(generator.get_state())`, to leave the caller's one untouched), so a
call without a generator (the default `None`) raises AttributeError instead of drawing from the global RNG as
`WeightedRandomSampler` does. (Contract walk, round 17: every check passed a generator.)"""
from course.grading.class_run.submissions import edited

EXPECT = {"balanced": "fail"}
CELLS = {"balanced_impl": edited(
    "15-02", "balanced_impl",
    ("    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=generator)\n",
     "    g = torch.Generator()\n"
     "    g.set_state(generator.get_state())  # a private copy: the caller's generator is left alone\n"
     "    return WeightedRandomSampler(weights, num_samples=num_samples, replacement=True, generator=g)\n"))}
