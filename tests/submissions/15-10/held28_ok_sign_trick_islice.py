"""Correct but unusual (held-out round 28): (1) EarlyStopping.improved maps mode "max" onto "min" by negating
(-value < -best - min_delta, exactly value > best + min_delta: negation is exact and rounding symmetric);
(2) the sampler's __iter__ hands out the permutation with itertools.islice over an enumerate, updating pos
before each yield."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "pass", "clipping": "pass", "sampler": "pass", "rng": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {
    "callbacks_impl": edited(
        "15-10", "callbacks_impl",
        ("        if self.mode == \"min\":\n            return value < self.best - self.min_delta\n"
         "        return value > self.best + self.min_delta\n",
         "        sign = 1.0 if self.mode == \"min\" else -1.0\n"
         "        return sign * value < sign * self.best - self.min_delta\n")),
    "sampler_impl": edited(
        "15-10", "sampler_impl",
        ("        for i in range(start, self.num_samples):\n"
         "            self.pos = i + 1  # counted when handed out: code after `yield` runs only on the next request\n"
         "            yield order[i]\n",
         "        import itertools\n"
         "        for i, idx in itertools.islice(enumerate(order), start, None):\n"
         "            self.pos = i + 1\n"
         "            yield idx\n")),
}
