"""Hidden checks for capture_rng_state / restore_rng_state (15-10, judge side)."""
import pytest
import torch

from course.checks import expect, expect_equal

pytestmark = pytest.mark.task("rng")


def run(student, gen, via_file):
    seed = int(torch.randint(0, 2**31 - 1, (1,), generator=gen))
    warmup = int(torch.randint(0, 4, (1,), generator=gen))
    return student.call("rng_roundtrip", seed=seed, via_file=via_file, warmup=warmup)


def compare(r, keys, source, how):
    for key in keys:
        for label in ("second", "third"):
            what = (f"{source} draws ({key}) after restore_rng_state(capture_rng_state()){how}"
                    + (" (restoring the same snapshot a second time)" if label == "third" else ""))
            expect_equal(r[label][key], r["first"][key], what)


@pytest.mark.parametrize("via_file", [False, True], ids=["in_memory", "through_torch_save"])
def test_torch_generator(student, gen, via_file):
    """the torch CPU generator continues exactly where it was captured"""
    r = run(student, gen, via_file)
    compare(r, ["torch", "randn"], "torch", ", saved with torch.save and loaded back" if via_file else "")


def test_numpy_generator(student, gen):
    """NumPy's global generator (including its cached gaussian) is restored"""
    r = run(student, gen, True)
    compare(r, ["numpy", "np_normal"], "numpy.random", ", saved with torch.save and loaded back")


def test_python_random(student, gen):
    """Python's random module (including random.gauss's cached value) is restored"""
    r = run(student, gen, True)
    compare(r, ["python", "gauss"], "Python random", ", saved with torch.save and loaded back")
