"""Wrong (held-out round 26): permutation() draws the order from NumPy, np.random.default_rng([seed, epoch])
.permutation(num_samples), instead of torch.randperm with a private torch.Generator. It is a pure function of
(seed, epoch) and leaves the global torch generator alone, but it breaks the "how" sentence "build a private
torch.Generator, seed it from those two numbers, and call torch.randperm with it", and it is wrong on an allowed
input: a negative seed (ResumableRandomSampler(10, seed=-1); seed is any int, and torch.Generator.manual_seed
takes negative ones) raises ValueError from NumPy's SeedSequence."""
from course.grading.class_run.submissions import edited

EXPECT = {"sampler": "fail"}
CELLS = {"sampler_impl": edited(
    "15-10", "sampler_impl",
    ("        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))\n"
     "        return torch.randperm(self.num_samples, generator=g).tolist()\n",
     "        rng = np.random.default_rng([self.seed, int(epoch)])\n"
     "        return [int(i) for i in rng.permutation(self.num_samples)]\n"))}
