# %% [markdown]
# # __TOPIC_ID__ · __TOPIC_TITLE__
#
# TEMPLATE (category A, algorithm): one idea per section, a worked example, then an exercise whose
# answer is compared with PyTorch's own implementation. Replace this paragraph with what the notebook
# teaches and why it matters.
#
# **You will build**
# 1. `stable_logaddexp`: `log(exp(a) + exp(b))` that survives inputs where `exp` overflows.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same functions much harder. Heavy demos below only run
# when you run the notebook yourself. Keep the `def` and `class` lines of the skeletons as they are (the
# parameters' names, their order and their defaults): a hidden check compares them, and a parameter you add must
# come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import torch

from course.student.checks import expect, expect_close, expect_equal, expect_gradcheck, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. Why `exp` needs care
#
# `torch.exp(89.0)` is already `inf` in float32 (the largest float32 is about `3.4e38 = e^88.7`), and
# float64 overflows near `e^709.8`. The identity `log(e^a + e^b) = m + log(e^(a-m) + e^(b-m))` with
# `m = max(a, b)` keeps every exponent at or below zero.

# %%
a = torch.tensor([1.0, 100.0, 1000.0])
print("naive: ", torch.log(torch.exp(a) + torch.exp(a)))
print("torch: ", torch.logaddexp(a, a))

if run_demos():  # heavy demos (timings, plots, training) go here: never run under grading
    pass

# %% [markdown]
# ### Exercise 1 · `stable_logaddexp` (2 points)
#
# Implement `stable_logaddexp(a, b)` without calling `torch.logaddexp`.
#
# * `a` and `b` are float tensors that broadcast against each other; return a tensor of the broadcast
#   shape and of the inputs' dtype.
# * Stay finite and accurate for inputs as large as ±1000 in float32 and float64.
# * Gradients flow through it: autograd differentiates your operations, so no custom Function is needed.

# %% [solution] id=logaddexp_impl
def stable_logaddexp(a, b):
    """Elementwise log(exp(a) + exp(b)), computed without overflow."""
    ### BEGIN SOLUTION
    m = torch.maximum(a, b)
    return m + torch.log1p(torch.exp(-(a - b).abs()))
    ### END SOLUTION


# %% [tests] id=logaddexp_tests points=2
_a = torch.tensor([0.0, 1.0, -3.0], dtype=torch.float64, requires_grad=True)
_b = torch.tensor([0.0, 2.0, 5.0], dtype=torch.float64, requires_grad=True)
expect_close(stable_logaddexp(_a, _b), torch.logaddexp(_a, _b), "stable_logaddexp(a, b) for small a, b")
expect(torch.isfinite(stable_logaddexp(torch.tensor([1000.0]), torch.tensor([999.0]))).all(),
       "a finite stable_logaddexp(1000, 999) in float32")
expect_gradcheck(stable_logaddexp, (_a, _b), "stable_logaddexp(a, b)")
### BEGIN HIDDEN TESTS
run_hidden("__TOPIC_ID__", "logaddexp", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## What to remember
#
# Replace with the two or three ideas a student should leave with.
