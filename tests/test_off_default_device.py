"""probelib.off_default_device, the CPU stand-in for a GPU that device checks use: a tensor made without
device= is told apart from the inputs' device, also where the code needs values (a boolean mask), which the
meta device cannot give; a correct answer that needs them is not rejected for it."""
import pytest
import torch

from course.judge.probelib import off_default_device, relative_device


def _call(fn, *tensors):
    out, home = off_default_device(fn, tensors)
    return relative_device(out, home), out.shape


def test_keeps_the_inputs_device_without_values():
    assert _call(lambda x: x * 2 + torch.ones_like(x), torch.randn(3)) == ("meta", torch.Size([3]))


def test_a_tensor_made_without_device_is_seen():
    with pytest.raises(RuntimeError):  # mixing a CPU tensor with a meta one
        _call(lambda x: x + torch.zeros(x.shape), torch.randn(3))
    where, _ = _call(lambda x: torch.zeros(x.shape), torch.randn(3))
    assert where != "meta"


def test_a_boolean_mask_is_not_held_against_correct_code():
    def positives_sum(x):
        return x[x > 0].sum().reshape(1)
    assert _call(positives_sum, torch.tensor([1.0, -2.0, 3.0])) == ("meta", torch.Size([1]))


def test_a_boolean_mask_with_a_tensor_made_without_device_is_still_seen():
    def wrong(x):
        return torch.cat([x[x > 0], torch.zeros(1)])  # zeros lands on the default device
    with pytest.raises(RuntimeError):
        _call(wrong, torch.tensor([1.0, -2.0, 3.0]))

    def wrong_result(x):
        x[x > 0].sum()
        return torch.zeros(2)
    where, _ = _call(wrong_result, torch.tensor([1.0, -2.0]))
    assert where != "meta"


@pytest.mark.parametrize("read", [lambda t: t.item(), bool, float, lambda t: t.numpy()],
                         ids=["item", "bool", "float", "numpy"])
def test_reading_a_value_is_not_held_against_correct_code(read):
    def clipped(x):
        return x * 0 if read((x.abs().max() > 10).float()) else x * 1
    assert _call(clipped, torch.tensor([1.0, -2.0])) == ("meta", torch.Size([2]))


def test_other_errors_propagate():
    def raises(x):
        raise KeyError("mine")
    with pytest.raises(KeyError):
        off_default_device(raises, (torch.randn(2),))
