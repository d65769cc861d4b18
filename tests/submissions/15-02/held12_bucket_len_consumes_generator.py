"""__len__ counts the batches of a whole epoch, so every len() call (tqdm(loader), len(loader)) consumes
the generator: the same seed gives another sequence of batches depending on how often len() was called."""
from course.grading.class_run.submissions import edited

EXPECT = {"bucket_sampler": "fail"}
CELLS = {"bucket_sampler_impl": edited("15-02", "bucket_sampler_impl", (
    "        return len(self.batches)\n",
    "        return sum(1 for _ in self)\n"))}
