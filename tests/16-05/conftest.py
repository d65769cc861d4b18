"""What 16-05's hidden checks share: inputs on which quantize and fake_quantize part from a wrong inverse."""
import pytest
import torch


def _double_scale_inputs(gen, n):
    """A Python float scale that float32 does not hold exactly, for which float32(1 / scale) (the inverse taken in
    double) differs from 1 / float32(scale) (PyTorch's), and values next to half levels where the two round apart."""
    for _ in range(200):
        scale = float(torch.rand((), dtype=torch.float64, generator=gen)) * 0.05 + 0.005
        s32 = torch.tensor(scale, dtype=torch.float32)
        inv, wrong = 1.0 / s32, torch.tensor(1.0 / scale, dtype=torch.float32)
        if inv == wrong:
            continue
        x = (torch.arange(-120, 120, dtype=torch.float32) + 0.5) * s32
        for _ in range(3):
            x = torch.cat([x, torch.nextafter(x, x + 1), torch.nextafter(x, x - 1)]).unique()
        x = x[torch.round(x * inv) != torch.round(x * wrong)]
        if x.numel() >= 4:
            return scale, x[:n]
    return None, torch.zeros(0)


@pytest.fixture
def double_scale_inputs():
    """``(gen, n) -> (scale, x)``: see _double_scale_inputs."""
    return _double_scale_inputs
