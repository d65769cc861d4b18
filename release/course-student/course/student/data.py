"""FashionMNIST and CIFAR-10 through torchvision, with a synthetic stand-in.

The real data set is used when it is already in the data folder or can be
downloaded. Otherwise a deterministic synthetic data set with the same
shapes, dtypes and ten classes is returned, and one line says so. The
stand-in is learnable: each class has its own smooth prototype image, and
samples are noisy, shifted copies of it, so a small model's loss falls.
"""
import os
from pathlib import Path

import torch
from torch.utils.data import Dataset

SHAPES = {"fashionmnist": (1, 28, 28), "cifar10": (3, 32, 32)}
CLASSES = {
    "fashionmnist": ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                     "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"],
    "cifar10": ["airplane", "automobile", "bird", "cat", "deer",
                "dog", "frog", "horse", "ship", "truck"],
}


def data_dir() -> Path:
    """The data folder: $COURSE_DATA_DIR, else a per-user cache folder
    (~/.cache/advanced-pytorch-internals/data, or under $XDG_CACHE_HOME)."""
    if os.environ.get("COURSE_DATA_DIR"):
        return Path(os.environ["COURSE_DATA_DIR"]).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "advanced-pytorch-internals" / "data"


class SyntheticImages(Dataset):
    """A stand-in with the real data set's shapes: uint8-range images as float tensors in [0, 1]."""

    def __init__(self, name: str, train: bool = True, size: int | None = None, transform=None, seed: int = 0):
        self.name = name
        self.shape = SHAPES[name]
        self.classes = CLASSES[name]
        self.size = size if size is not None else (6000 if train else 1000)
        self.transform = transform
        g = torch.Generator().manual_seed(seed)
        c, h, w = self.shape
        # One low-frequency prototype per class, upsampled from a 4x4 grid.
        coarse = torch.rand(10, c, 4, 4, generator=g)
        self.prototypes = torch.nn.functional.interpolate(coarse, size=(h, w), mode="bilinear", align_corners=False)
        self.targets = torch.randint(0, 10, (self.size,), generator=g)
        self.seed = seed + (0 if train else 1_000_003)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, idx: int):
        if not 0 <= idx < self.size:
            raise IndexError(idx)
        g = torch.Generator().manual_seed(self.seed * 7919 + idx)
        label = int(self.targets[idx])
        img = self.prototypes[label] + 0.25 * torch.randn(self.shape, generator=g)
        shift = int(torch.randint(-2, 3, (1,), generator=g))
        img = torch.roll(img, shifts=shift, dims=-1).clamp(0, 1)
        img = (img * 255).round() / 255
        if self.transform is not None:
            img = self.transform(img)
        return img, label


def _torchvision_dataset(name: str, train: bool, transform, download: bool):
    import torchvision
    from torchvision import transforms

    cls = {"fashionmnist": torchvision.datasets.FashionMNIST, "cifar10": torchvision.datasets.CIFAR10}[name]
    tf = transform if transform is not None else transforms.ToTensor()
    return cls(root=str(data_dir()), train=train, transform=tf, download=download)


def load(name: str, train: bool = True, transform=None, allow_download: bool | None = None,
         synthetic_size: int | None = None, verbose: bool = True):
    """Return the real data set if possible, else the synthetic stand-in (announced in one line).

    Under grading (``course.env.fast_mode()``) the stand-in is used directly so
    grading never depends on the network or on files outside the submission.
    """
    from .env import fast_mode

    name = name.lower().replace("-", "").replace("_", "")
    if name not in SHAPES:
        raise ValueError(f"unknown data set {name!r}; choose from {sorted(SHAPES)}")
    if not fast_mode():
        if allow_download is None:
            allow_download = os.environ.get("COURSE_NO_DOWNLOAD", "") in ("", "0")
        try:
            ds = _torchvision_dataset(name, train, transform, download=False)
            if verbose:
                print(f"Loaded {name} ({'train' if train else 'test'}, {len(ds)} images) from {data_dir()}")
            return ds
        except Exception:  # not there yet (RuntimeError), unreadable, or torchvision missing
            pass
        if allow_download:
            try:
                import contextlib
                import io
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    ds = _torchvision_dataset(name, train, transform, download=True)
                if verbose:
                    print(f"Downloaded {name} into {data_dir()}")
                return ds
            except Exception:  # no network, mirror down, disk full: fall back below
                pass
    ds = SyntheticImages(name, train=train, size=synthetic_size, transform=transform)
    if verbose:
        print(f"NOTE: using a SYNTHETIC stand-in for {name} ({len(ds)} images of shape {ds.shape}, 10 classes): "
              f"the real data set is not in {data_dir()} and could not be downloaded.")
    return ds
