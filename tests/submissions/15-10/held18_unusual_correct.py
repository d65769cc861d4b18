"""Correct EarlyStopping written in an unusual way (round 18): mode "max" is mode "min" on negated
values (negation is exact in floating point, so -v < -best - min_delta is v > best + min_delta, nan
included), and the counter is one conditional expression."""
from course.grading.class_run.submissions import edited

CELLS = {"callbacks_impl": edited("15-10", "callbacks_impl", (
    "        if self.best is None:\n            return True\n        if self.mode == \"min\":\n"
    "            return value < self.best - self.min_delta\n        return value > self.best + self.min_delta\n",
    "        sign = 1.0 if self.mode == \"min\" else -1.0\n"
    "        return self.best is None or sign * value < sign * self.best - self.min_delta\n"), (
    "        if self.improved(value):\n            self.best = value\n            self.wait = 0\n"
    "        else:\n            self.wait += 1\n            if self.wait >= self.patience:\n"
    "                trainer.should_stop = True\n",
    "        better = self.improved(value)\n        self.best = value if better else self.best\n"
    "        self.wait = 0 if better else self.wait + 1\n"
    "        if not better and self.wait >= self.patience:\n            trainer.should_stop = True\n"))}
EXPECT = {"callbacks": "pass"}
