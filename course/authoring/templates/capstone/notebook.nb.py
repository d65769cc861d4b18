# %% [markdown]
# # __TOPIC_ID__ · __TOPIC_TITLE__
#
# TEMPLATE (category E, capstone/integration): the student assembles parts from earlier topics into one
# working system, and the hidden checks judge it by behaviour: state that survives a save and a resume at
# every point, several objects of one kind, runs with and without each optional part. Replace this
# paragraph with what the notebook builds and why.
#
# **You will build**
# 1. `RunningStats`: streaming mean and variance whose state can be saved and resumed exactly.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same objects much harder, including a save and resume
# after every update. Heavy demos below only run when you run the notebook yourself. Keep the `def` and `class`
# lines of the skeletons as they are (the parameters' names, their order and their defaults): a hidden check
# compares them, and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import math

import torch

from course.student.checks import expect, expect_close, expect_equal, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. State you can resume
#
# A training run is stopped and restarted many times. Anything that accumulates (a running metric, an
# optimizer, an RNG) must be able to write its complete state as plain data and continue from it as if
# nothing had happened. Welford's update keeps a count, a mean and a sum of squared deviations, and stays
# accurate where the naive sum of squares cancels catastrophically.

# %%
if run_demos():  # heavy demos (training, timings, plots) go here: never run under grading
    pass

# %% [markdown]
# ### Exercise 1 · `RunningStats` (3 points)
#
# * `update(x)` folds a 1-D float tensor of values (possibly empty) into the statistics.
# * `mean()` and `var()` return Python floats: the mean and the population variance (divide by `n`) of
#   every value seen so far, and `nan` before any value.
# * `state_dict()` returns plain Python data (numbers only), and `load_state_dict(state)` on a fresh
#   object continues exactly where the saved one stopped.
# * Separate objects never share state.

# %% [solution] id=running_stats_impl
class RunningStats:
    """Streaming mean and population variance (Welford), resumable through state_dict."""

    def __init__(self):
        ### BEGIN SOLUTION
        self.n, self.mean_, self.m2 = 0, 0.0, 0.0
        ### END SOLUTION

    def update(self, x):
        ### BEGIN SOLUTION
        for v in x.detach().double().flatten().tolist():
            self.n += 1
            d = v - self.mean_
            self.mean_ += d / self.n
            self.m2 += d * (v - self.mean_)
        ### END SOLUTION

    def mean(self):
        ### BEGIN SOLUTION
        return self.mean_ if self.n else math.nan
        ### END SOLUTION

    def var(self):
        ### BEGIN SOLUTION
        return self.m2 / self.n if self.n else math.nan
        ### END SOLUTION

    def state_dict(self):
        ### BEGIN SOLUTION
        return {"n": self.n, "mean": self.mean_, "m2": self.m2}
        ### END SOLUTION

    def load_state_dict(self, state):
        ### BEGIN SOLUTION
        self.n, self.mean_, self.m2 = int(state["n"]), float(state["mean"]), float(state["m2"])
        ### END SOLUTION


# %% [tests] id=running_stats_tests points=3
_s = RunningStats()
expect(math.isnan(_s.mean()), "RunningStats().mean() before any update (nan)")
_s.update(torch.tensor([1.0, 2.0, 3.0, 4.0]))
expect_close(_s.mean(), 2.5, "mean() after update([1, 2, 3, 4])")
expect_close(_s.var(), 1.25, "var() after update([1, 2, 3, 4]) (population variance)")
_t = RunningStats()
_t.load_state_dict(_s.state_dict())
_t.update(torch.tensor([5.0]))
expect_close(_t.mean(), 3.0, "mean() of a resumed object after one more value")
### BEGIN HIDDEN TESTS
run_hidden("__TOPIC_ID__", "running_stats", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## What to remember
#
# Replace with the two or three ideas a student should leave with.
