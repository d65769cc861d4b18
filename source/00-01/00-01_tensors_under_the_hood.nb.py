# %% [markdown]
# # 00-01 · Tensors under the hood
#
# A tensor is a thin header over a flat block of memory. The header says how many elements lie along
# each dimension (the **shape**), how far to jump in memory for one step along each dimension (the
# **stride**) and where the first element sits (the **storage offset**). Transposing, slicing or
# expanding a tensor only writes a new header: no element moves. Knowing this lets you predict when an
# operation is free, when it copies, and why some calls (`view`, in-place writes) refuse to run.
#
# **You will build**
# 1. `view_meta`: the shape, stride and offset of `view`, `transpose`, `expand`, a slice and `select`,
#    computed with integers alone.
# 2. `windows`: sliding windows over the last dimension as a view, with `as_strided`.
# 3. `reshape_is_view`: whether `reshape` can return a view or must copy.
# 4. `result_dtype`: the dtype PyTorch picks when two operands of different dtypes meet.
# 5. `stale_nodes`: the nodes of a backward graph whose saved tensors were overwritten in place.
# 6. `OpLogger`: a dispatch mode that logs the aten operators of a forward and backward pass and counts
#    the FLOPs of matrix products and convolutions as `FlopCounterMode` does.
#
# **How this notebook is graded.** Each exercise has a cell of visible checks you can run now, and
# **Validate runs only those visible examples**: "Success!" means they pass, not that you have full
# marks. When you submit, hidden checks test the same functions much harder: hundreds of layouts drawn
# at random (zero-size and size-1 dimensions, negative dimensions, stride 0, offsets) compared with what
# PyTorch itself does. Heavy demos below only run when you run the notebook yourself (all of them
# together take a few seconds, plus the first load of FashionMNIST). Keep the `def` and `class` lines of the
# skeletons as they are (the parameters' names, their order and their defaults): a hidden check compares them,
# and a parameter you add must come after them, with a default.

# %%
# Setup: course helpers and device. Runs on CPU or GPU.
import math

import torch

from course.student.checks import expect, expect_close, expect_equal, expect_gradcheck, expect_raises
from course.student.env import pick_device, run_demos
from course.student.hidden import run_hidden

DEVICE = pick_device()
_ = torch.manual_seed(0)

# %% [markdown]
# ## 1. Shape, stride, offset
#
# Element `t[i, j, k]` lives at storage position `offset + i*stride[0] + j*stride[1] + k*stride[2]`.
# A freshly made tensor is *contiguous*: the last dimension has stride 1 and each earlier stride is
# the product of the sizes after it. Every view operation is a rule that rewrites this header:
#
# * `transpose(d0, d1)` swaps two sizes and the two matching strides.
# * `select(d, i)` (what `t[..., i]` does) adds `i*stride[d]` to the offset and drops dimension `d`.
# * a slice `start:stop:step` on dimension `d` adds `start*stride[d]` to the offset, multiplies that
#   stride by `step` and keeps `ceil((stop - start) / step)` elements, after Python's clamping of
#   `start` and `stop`.
# * `expand` turns a size-1 dimension (or a new leading one) into any size with **stride 0**: every
#   index along it reads the same element.
# * `view(new_shape)` keeps the offset and needs new strides that reach the same elements in the same
#   order. That only works when each group of new dimensions falls inside a block of old dimensions
#   that walk memory evenly (`stride[k] == stride[k+1] * size[k+1]`); otherwise `view` raises.

# %%
storage = torch.arange(12.0)
t = storage.view(3, 4)
print("t:", tuple(t.shape), t.stride(), t.storage_offset())
tt = t.t()
print("t.t():", tuple(tt.shape), tt.stride(), tt.storage_offset(), "contiguous:", tt.is_contiguous())
s = t[1:, ::2]
print("t[1:, ::2]:", tuple(s.shape), s.stride(), s.storage_offset(), "values", s.tolist())
e = torch.arange(3.0).view(3, 1).expand(3, 5)
print("expand(3, 5):", tuple(e.shape), e.stride())
try:
    tt.view(12)
except RuntimeError as err:
    print("tt.view(12) raises:", str(err).split(".")[0])


def draw_storage(t, title, ax):
    """A row of storage cells; the cells the view t reads are coloured by their flat index in t."""
    size = t.untyped_storage().nbytes() // t.element_size()
    order = torch.full((size,), float("nan"))
    pos = torch.zeros(t.shape, dtype=torch.long) + t.storage_offset()
    for d in range(t.dim()):
        shape = [1] * t.dim()
        shape[d] = t.shape[d]
        pos = pos + torch.arange(t.shape[d]).view(shape) * t.stride(d)
    order[pos.reshape(-1)] = torch.arange(pos.numel(), dtype=torch.float)
    ax.imshow(order.view(1, -1), cmap="viridis", aspect="auto")
    for i, v in enumerate(order.tolist()):
        ax.text(i, 0, "" if math.isnan(v) else int(v), ha="center", va="center", color="w", fontsize=8)
    ax.set_yticks([])
    ax.set_title(f"{title}: shape {tuple(t.shape)}, stride {t.stride()}, offset {t.storage_offset()}",
                 fontsize=9)


if run_demos():
    import matplotlib.pyplot as plt

    base = torch.arange(24.0)
    views = [("contiguous (4, 6)", base.view(4, 6)), ("transposed", base.view(4, 6).t()),
             ("[1:, ::2]", base.view(4, 6)[1:, ::2]), ("select column 3", base.view(4, 6)[:, 3])]
    fig, axes = plt.subplots(len(views), 1, figsize=(10, 4.5))
    for ax, (name, v) in zip(axes, views):
        draw_storage(v, name, ax)
    plt.tight_layout()
    plt.show()

# %% [markdown]
# The figure shows the same 24 storage cells four times. A number in a cell says which element of
# the view (counted in row-major order) reads it; blank cells are storage the view never touches.
# A transpose reads every cell but in another order, which is exactly why `view(-1)` refuses it.
#
# The same happens to real data. Below, a batch of FashionMNIST images `(N, 1, 28, 28)` is
# transposed (each image mirrored across its diagonal) and cropped with a strided slice, and the
# result still shares the batch's memory.

# %%
if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    ds = load("fashionmnist", train=True)
    xb, _ = next(iter(DataLoader(ds, batch_size=8)))
    flipped = xb.transpose(-1, -2)
    crop = xb[:, 0, 4:24:2, 4:24:2]
    print("batch", tuple(xb.shape), xb.stride())
    print("transposed", tuple(flipped.shape), flipped.stride(), "same memory:",
          flipped.data_ptr() == xb.data_ptr())
    print("crop", tuple(crop.shape), crop.stride(), "offset", crop.storage_offset())
    fig, axes = plt.subplots(3, 4, figsize=(7, 5.5))
    for k in range(4):
        for row, (name, img) in enumerate([("image", xb[k, 0]), ("transpose", flipped[k, 0]),
                                           ("every 2nd pixel", crop[k])]):
            axes[row, k].imshow(img, cmap="gray")
            axes[row, k].set_title(name, fontsize=8)
            axes[row, k].axis("off")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 1 · `view_meta` (3 points)
#
# Write `view_meta(shape, stride, offset, op, args)`, which returns the `(shape, stride, offset)` of
# the tensor that one view operation gives, using integer arithmetic only: no tensors, no
# `as_strided`, no calls into PyTorch.
#
# * `shape` and `stride` are tuples of ints of equal length (possibly empty), `offset` is an int;
#   return a tuple `(shape, stride, offset)` whose shape and stride are tuples of ints.
# * `op` and `args` are one of: `"view", (new_shape,)` where `new_shape` may hold one `-1`;
#   `"transpose", (d0, d1)`; `"expand", (sizes,)` where `sizes` may hold `-1` for "keep this size"
#   and may add leading dimensions; `"slice", (dim, start, stop, step)` with `start`/`stop` ints
#   (negative ones count from the end) or `None` and `step >= 1`; `"select", (dim, index)`.
# * Dimensions may be negative, as in PyTorch; a dimension out of range raises `IndexError`, and so
#   does a `select` index out of range.
# * Raise `RuntimeError` where PyTorch's `view` or `expand` does: a `view` whose sizes do not match the
#   number of elements (or that cannot infer its `-1`), or whose strides cannot be expressed over the
#   old memory, and an `expand` that changes a size other than 1, has fewer sizes than dimensions, or
#   puts `-1` in a new leading dimension (there is no size there to keep).
# * The result must equal what PyTorch's own operation gives on a tensor with that shape, stride and
#   offset. Strides of dimensions of size 1 are never used to reach an element, so they are not
#   compared; for a result with no elements only the shape is compared.

# %% [solution] id=view_meta_impl
def view_meta(shape, stride, offset, op, args):
    """The (shape, stride, offset) after one view op, from integer arithmetic alone."""
    ### BEGIN SOLUTION
    shape, stride, offset = list(shape), list(stride), int(offset)
    n = len(shape)

    def wrap(d):
        if not -n <= d < n:
            raise IndexError(f"dimension {d} is out of range for a {n}-dim tensor")
        return d % n

    if op == "transpose" and n == 0:  # PyTorch lets a 0-dim tensor name dimension 0 (or -1): nothing moves
        if not all(d in (-1, 0) for d in args[:2]):
            raise IndexError(f"dimension out of range for a 0-dim tensor: {args[:2]}")
    elif op == "transpose":
        d0, d1 = wrap(args[0]), wrap(args[1])
        shape[d0], shape[d1] = shape[d1], shape[d0]
        stride[d0], stride[d1] = stride[d1], stride[d0]
    elif op == "select":
        d, i = wrap(args[0]), args[1]
        if not -shape[d] <= i < shape[d]:
            raise IndexError(f"index {i} is out of range for a dimension of size {shape[d]}")
        offset += (i % shape[d]) * stride[d]
        del shape[d], stride[d]
    elif op == "slice":
        d, start, stop, step = wrap(args[0]), args[1], args[2], args[3]
        size = shape[d]
        start = 0 if start is None else start + size if start < 0 else start
        stop = size if stop is None else stop + size if stop < 0 else stop
        start = min(max(start, 0), size)
        stop = min(max(stop, start), size)
        offset += start * stride[d]
        shape[d] = (stop - start + step - 1) // step
        stride[d] *= step
    elif op == "expand":
        sizes = list(args[0])
        extra = len(sizes) - n
        if extra < 0:
            raise RuntimeError("expand: fewer sizes than dimensions")
        new_shape, new_stride = [], []
        for k, want in enumerate(sizes):
            if k < extra:
                if want < 0:
                    raise RuntimeError("expand: -1 is not allowed in a new leading dimension")
                new_shape.append(want)
                new_stride.append(0)
                continue
            have, st = shape[k - extra], stride[k - extra]
            if want == -1 or want == have:
                new_shape.append(have)
                new_stride.append(st)
            elif have == 1:
                new_shape.append(want)
                new_stride.append(0)
            else:
                raise RuntimeError(f"expand: a dimension of size {have} cannot become {want}")
        shape, stride = new_shape, new_stride
    elif op == "view":
        numel = math.prod(shape)
        new = list(args[0])
        if new.count(-1) > 1:
            raise RuntimeError("view: only one dimension can be -1")
        if -1 in new:
            known = math.prod(s for s in new if s != -1)
            if known == 0 or numel % known:
                raise RuntimeError(f"view: shape {tuple(args[0])} is invalid for {numel} elements")
            new[new.index(-1)] = numel // known
        if math.prod(new) != numel:
            raise RuntimeError(f"view: shape {tuple(args[0])} is invalid for {numel} elements")
        out = [1] * len(new)
        if numel == 0:  # no element is ever reached: any strides will do
            return tuple(new), tuple(out), offset
        # blocks of old dimensions that walk memory evenly; size-1 dimensions never matter
        blocks = []  # (number of elements, stride of the block's innermost dimension)
        for size, st in zip(shape, stride):
            if size == 1:
                continue
            if blocks and blocks[-1][1] == st * size:
                blocks[-1] = (blocks[-1][0] * size, st)
            else:
                blocks.append((size, st))
        k = len(new) - 1
        for elems, base in reversed(blocks):
            run = 1
            while k >= 0 and (run < elems or new[k] == 1):
                out[k] = run * base
                run *= new[k]
                k -= 1
            if run != elems:
                raise RuntimeError("view size is not compatible with input tensor's size and stride")
        shape, stride = new, out
    else:
        raise ValueError(f"unknown op {op!r}")
    return tuple(shape), tuple(stride), offset
    ### END SOLUTION


# %% [tests] id=view_meta_tests points=3
expect_equal(view_meta((3, 4), (4, 1), 0, "transpose", (0, 1)), ((4, 3), (1, 4), 0), "view_meta transpose of (3, 4)")
expect_equal(view_meta((3, 4), (4, 1), 2, "slice", (1, 1, None, 2)), ((3, 2), (4, 2), 3),
             "view_meta slice 1::2 on dim 1 of (3, 4) at offset 2")
expect_equal(view_meta((3, 4), (4, 1), 0, "select", (-1, 2)), ((3,), (4,), 2), "view_meta select(-1, 2) of (3, 4)")
expect_equal(view_meta((3, 1), (1, 1), 0, "expand", ((2, 3, 5),))[0], (2, 3, 5), "the shape of view_meta expand")
expect_equal(view_meta((2, 3, 4), (12, 4, 1), 5, "view", ((6, -1),)), ((6, 4), (4, 1), 5), "view_meta view (6, -1)")
expect_raises(RuntimeError, lambda: view_meta((3, 4), (1, 3), 0, "view", ((12,),)), "view_meta view of a transpose")
### BEGIN HIDDEN TESTS
run_hidden("00-01", "view_meta", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 2. Sliding windows without copying
#
# `torch.as_strided(x, shape, stride, offset)` writes a header by hand. With it, overlapping windows
# of a signal cost nothing: a window of `size` elements that moves `step` elements at a time is a new
# dimension whose stride is `step` times the old one, while the window's own dimension keeps the old
# stride. PyTorch's `unfold` does exactly this. Because windows overlap, one storage element appears
# in several of them: writing into such a view would be ambiguous, so use it for reading.

# %%
sig = torch.arange(10.0)
w = sig.as_strided((4, 4), (2, 1))
print(w)
print("same as unfold:", torch.equal(w, sig.unfold(0, 4, 2)), "stride", w.stride())

if run_demos():
    import matplotlib.pyplot as plt
    from torch.utils.data import DataLoader

    from course.student.data import load

    ds = load("fashionmnist", train=True)
    xb, _ = next(iter(DataLoader(ds, batch_size=4)))
    rows = xb[:, 0].unfold(-1, 7, 7)  # (4, 28, 4, 7): each image row cut into 4 pieces of 7 pixels
    print("row pieces", tuple(rows.shape), rows.stride(), "shares memory:", rows.data_ptr() == xb.data_ptr())
    fig, axes = plt.subplots(1, 4, figsize=(8, 2.4))
    for k, ax in enumerate(axes):
        ax.imshow(rows[0, :, k, :], cmap="gray")
        ax.set_title(f"columns {7 * k}..{7 * k + 6}", fontsize=8)
        ax.axis("off")
    plt.tight_layout()
    plt.show()

# %% [markdown]
# ### Exercise 2 · `windows` (2 points)
#
# Write `windows(x, size, step)` with `as_strided` (not `unfold`): the windows of `size` consecutive
# elements along the last dimension of `x`, starting every `step` elements.
#
# * `x` is a tensor of any dtype with at least one dimension, in any layout (transposed, sliced, with a
#   storage offset, expanded with stride 0).
# * The result is a view of `x`: it shares `x`'s storage and, like every view, its version counter
#   (`_version`), and `x` is left unchanged.
# * Its shape, strides and values equal those of `x.unfold(-1, size, step)` (strides of dimensions of
#   size 1 are not compared).
# * When `size` is larger than the last dimension, return an empty result of shape
#   `x.shape[:-1] + (0, size)` instead of raising as `unfold` does.
# * Raise `ValueError` for a 0-dim `x`, and when `size` or `step` is below 1.

# %% [solution] id=windows_impl
def windows(x, size, step):
    """Windows of `size` elements every `step` elements along x's last dimension, as a view of x."""
    ### BEGIN SOLUTION
    if x.dim() == 0:
        raise ValueError("windows needs a tensor with at least one dimension")
    if size < 1 or step < 1:
        raise ValueError(f"size and step must be at least 1, got size={size}, step={step}")
    length, st = x.shape[-1], x.stride(-1)
    count = max(0, (length - size) // step + 1)
    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(x.stride()[:-1]) + (step * st, st),
                        x.storage_offset())
    ### END SOLUTION


# %% [tests] id=windows_tests points=2
_x = torch.arange(20.0).view(2, 10)
expect_equal(windows(_x, 4, 3), _x.unfold(-1, 4, 3), "windows(x, 4, 3) for x of shape (2, 10)")
expect_equal(windows(_x, 4, 3).stride(), _x.unfold(-1, 4, 3).stride(), "the strides of windows(x, 4, 3)")
expect(windows(_x, 4, 3).data_ptr() == _x.data_ptr(), "windows(x, 4, 3) shares x's memory")
expect_equal(tuple(windows(_x, 11, 1).shape), (2, 0, 11), "the shape of windows(x, 11, 1) for x of shape (2, 10)")
expect_raises(ValueError, lambda: windows(torch.tensor(1.0), 1, 1), "windows of a 0-dim tensor")
### BEGIN HIDDEN TESTS
run_hidden("00-01", "windows", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 3. When `reshape` copies
#
# `reshape` is `view` when the strides allow it and a copy (`contiguous()` followed by `view`) when
# they do not. The two look the same until you write into the result: a view changes the original, a
# copy does not. Knowing which you get saves surprise writes and surprise memory traffic.

# %%
a = torch.arange(6.0).view(2, 3)
r1 = a.reshape(3, 2)      # contiguous input: a view
r2 = a.t().reshape(6)     # transposed input: a copy
print("r1 shares memory:", r1.data_ptr() == a.data_ptr(), " r2 shares memory:", r2.data_ptr() == a.data_ptr())

# %% [markdown]
# ### Exercise 3 · `reshape_is_view` (1 point)
#
# Write `reshape_is_view(shape, stride, new_shape)`: `True` when `t.reshape(new_shape)` returns a view
# of a tensor `t` with that shape and stride, `False` when it copies.
#
# * `new_shape` has the same number of elements as `shape` and may hold one `-1`.
# * Decide from the integers alone (your `view_meta` can help); the answer must agree with PyTorch's
#   `reshape` for contiguous, transposed, sliced and expanded layouts, zero-size ones included.

# %% [solution] id=reshape_view_impl
def reshape_is_view(shape, stride, new_shape):
    """Whether reshape to new_shape can return a view of a tensor with this shape and stride."""
    ### BEGIN SOLUTION
    try:
        view_meta(shape, stride, 0, "view", (new_shape,))
    except RuntimeError:
        return False
    return True
    ### END SOLUTION


# %% [tests] id=reshape_view_tests points=1
expect(reshape_is_view((2, 3), (3, 1), (3, 2)) is True, "reshape_is_view of a contiguous (2, 3) to (3, 2)")
expect(reshape_is_view((3, 2), (1, 3), (6,)) is False, "reshape_is_view of a transposed (3, 2) to (6,)")
### BEGIN HIDDEN TESTS
run_hidden("00-01", "reshape_view", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 4. Which dtype wins
#
# `int_tensor + 0.5` gives a float tensor, but `float16_tensor + torch.tensor(1.0, dtype=torch.float64)`
# stays float16. PyTorch sorts dtypes into four **categories**, bool < integer < floating < complex,
# and sorts operands into three **tiers**: tensors with at least one dimension, 0-dim tensors, and
# Python numbers. The rule:
#
# 1. Within a tier, two dtypes are promoted to one that holds both: the larger of two of the same
#    kind; `uint8` with `int8` gives `int16`; `float16` with `bfloat16` gives `float32`; an integer
#    or bool with a float gives the float; a float with a complex gives the complex, made `complex128`
#    if the float was `float64`.
# 2. A Python `bool` counts as `torch.bool`, an `int` as `torch.int64`, a `float` as
#    `torch.get_default_dtype()` and a `complex` as the complex type of that default (`complex64` for
#    `float32`, `complex128` for `float64`).
# 3. Start from the highest tier present. A lower tier changes the answer only if its category is
#    higher: then its dtype wins, except that a floating result meeting a complex lower tier becomes
#    the complex type of the same precision (`float32` gives `complex64`, `float64` gives `complex128`).

# %%
i8 = torch.ones(3, dtype=torch.int8)
print((i8 + 1000).dtype, (i8 + 0.5).dtype, (i8 + torch.tensor(2, dtype=torch.int64)).dtype,
      (i8 + torch.tensor(0.5, dtype=torch.float64)).dtype, (torch.ones(2) * 1j).dtype)

# %% [markdown]
# ### Exercise 4 · `result_dtype` (3 points)
#
# Write `result_dtype(a, b)`, the dtype of `a + b` by the rules above, building the table yourself:
# do not call `torch.result_type`, `torch.promote_types` or PyTorch's own promotion code (such as
# `torch._prims_common`), and make or compute no tensor (no arithmetic on `a` and `b`). The checks record the PyTorch calls your function makes; reading `.dtype` or `.dim()`
# is fine.
#
# * Each of `a` and `b` is a tensor (of any number of dimensions, 0-dim included) or a Python `bool`,
#   `int`, `float` or `complex`; at least one is a tensor.
# * Tensor dtypes are `bool`, `uint8`, `int8`, `int16`, `int32`, `int64`, `float16`, `bfloat16`,
#   `float32`, `float64`, `complex64` and `complex128`. The answer must equal `torch.result_type(a, b)`
#   for every pair, with the default dtype `float32` or `float64`. Pairs where PyTorch answers with its
#   half-precision complex types (a `float16` or `bfloat16` tensor meeting a complex operand of a lower
#   tier) are left out.
# * Return a `torch.dtype`; leave `a`, `b` and the default dtype unchanged.

# %% [solution] id=result_dtype_impl
def result_dtype(a, b):
    """The dtype of a + b, from the category and tier rules."""
    ### BEGIN SOLUTION
    ints = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
    floats = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
    complex_of = {torch.float32: torch.complex64, torch.float64: torch.complex128}

    def category(dt):
        if dt == torch.bool:
            return 0
        if dt in ints:
            return 1
        if dt in floats:
            return 2
        return 3

    def promote_two(x, y):  # step 1: the dtype that holds both
        if x == y:
            return x
        cx, cy = category(x), category(y)
        if cx != cy:
            hi, lo = (x, y) if cx > cy else (y, x)
            if category(hi) == 3 and lo == torch.float64:
                return torch.complex128
            return hi
        if cx == 1 and torch.uint8 in (x, y):
            other = y if x == torch.uint8 else x
            return torch.int16 if other == torch.int8 else other
        if {x, y} == {torch.float16, torch.bfloat16}:
            return torch.float32
        return x if x.itemsize > y.itemsize else y

    tiers = {2: [], 1: [], 0: []}
    for v in (a, b):
        if isinstance(v, torch.Tensor):
            tiers[2 if v.dim() else 1].append(v.dtype)
        elif isinstance(v, bool):
            tiers[0].append(torch.bool)
        elif isinstance(v, int):
            tiers[0].append(torch.int64)
        elif isinstance(v, float):
            tiers[0].append(torch.get_default_dtype())
        elif isinstance(v, complex):
            tiers[0].append(complex_of[torch.get_default_dtype()])
        else:
            raise TypeError(f"not a tensor or a Python number: {type(v).__name__}")
    result = None
    for tier in (2, 1, 0):
        if not tiers[tier]:
            continue
        here = tiers[tier][0] if len(tiers[tier]) == 1 else promote_two(*tiers[tier])
        if result is None:
            result = here
        elif category(here) > category(result):
            result = complex_of[result] if category(result) == 2 and category(here) == 3 else here
    return result
    ### END SOLUTION


# %% [tests] id=result_dtype_tests points=3
_i8 = torch.ones(3, dtype=torch.int8)
expect_equal(result_dtype(_i8, 1000), torch.int8, "result_dtype(int8 tensor, 1000)")
expect_equal(result_dtype(_i8, 0.5), torch.get_default_dtype(), "result_dtype(int8 tensor, 0.5)")
expect_equal(result_dtype(_i8, torch.tensor(2)), torch.int8, "result_dtype(int8 tensor, 0-dim int64)")
expect_equal(result_dtype(torch.ones(2, dtype=torch.uint8), torch.ones(2, dtype=torch.int8)), torch.int16,
             "result_dtype(uint8 tensor, int8 tensor)")
expect_equal(result_dtype(torch.tensor(1.0, dtype=torch.float64), 1j), torch.complex128,
             "result_dtype(0-dim float64, 1j)")
### BEGIN HIDDEN TESTS
run_hidden("00-01", "result_dtype", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 5. The version counter
#
# Every tensor carries a counter, `t._version`, shared by all views of one storage, that goes up with
# each in-place write. When autograd saves a tensor for backward (the input of `sin`, the *output* of
# `exp`, both factors of a `mul`) it notes the counter. If backward later finds a different number,
# the saved values are no longer the ones the forward pass used, and it refuses with "one of the
# variables needed for gradient computation has been modified by an inplace operation". The saved
# tensors are visible as the node's attributes named `_saved_...`; reading a stale one raises the
# same error, so you can find the culprit before calling backward.

# %%
x = torch.randn(3, requires_grad=True)
y = x.exp()          # ExpBackward0 saves its result y
z = (y * 2).sin()    # MulBackward0 saves nothing tensor-like for a number; SinBackward0 saves y * 2
print("versions before:", y._version, [n for n in dir(y.grad_fn) if n.startswith("_saved_")])
y.add_(1)
print("version after y.add_(1):", y._version)
try:
    z.sum().backward()
except RuntimeError as err:
    print("backward fails:", str(err)[:80], "...")

# %% [markdown]
# ### Exercise 5 · `stale_nodes` (2 points)
#
# Write `stale_nodes(out)`: the names (`type(node).__name__`, such as `"ExpBackward0"`) of the nodes in
# `out`'s backward graph that hold a saved tensor modified in place after it was saved (or already freed by
# an earlier backward).
#
# * Visit every node reachable from `out.grad_fn` through `next_functions`, each node once even when
#   several paths lead to it; skip the `None` entries of `next_functions`.
# * A node is stale when reading one of its `_saved_...` attributes raises `RuntimeError` (a saved tensor
#   modified in place, or one freed by an earlier backward without `retain_graph=True`).
# * Return a sorted list with one name per stale node (two stale `ExpBackward0` nodes give the name
#   twice); return `[]` when `out` has no `grad_fn`. The list is empty exactly when `out.sum().backward()`
#   would succeed, as long as every tensor the graph saved shows as a `_saved_...` attribute (a custom
#   `autograd.Function` keeps its tensors in `ctx`, and an in-place operation on a view hides its node
#   inside a `CopySlices` node: the checks build neither).
# * Only inspect: do not run backward and do not write to any tensor (no `.grad` appears, no
#   `_version` changes).

# %% [solution] id=stale_nodes_impl
def stale_nodes(out):
    """Sorted names of the graph nodes of out whose saved tensors were changed in place."""
    ### BEGIN SOLUTION
    stale, seen = [], set()
    todo = [out.grad_fn] if out.grad_fn is not None else []
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    getattr(node, attr)
                except RuntimeError:
                    stale.append(type(node).__name__)
                    break
        todo.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
    return sorted(stale)
    ### END SOLUTION


# %% [tests] id=stale_nodes_tests points=2
_x = torch.randn(4, requires_grad=True)
_y = _x.exp()
_z = (_y * _y).sin()
expect_equal(stale_nodes(_z), [], "stale_nodes(out) before any in-place write")
_y.mul_(2)
expect_equal(stale_nodes(_z), ["ExpBackward0", "MulBackward0"], "stale_nodes(out) after y.mul_(2), y = x.exp()")
expect_equal(stale_nodes(_x.detach() * 2), [], "stale_nodes of a tensor without grad_fn")
expect(_x.grad is None, "stale_nodes does not run backward")
### BEGIN HIDDEN TESTS
run_hidden("00-01", "stale_nodes", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## 6. What reaches the dispatcher
#
# Every PyTorch call ends up in the **dispatcher**, which picks a kernel for a concrete *aten* operator.
# Python-level helpers such as `nn.Linear` or `F.conv2d` are first broken into these operators: a
# `Linear` becomes `aten.t` of its weight and `aten.addmm` (`aten.mm` when it has no bias), with views
# around them for inputs of more than two dimensions; a `Conv2d` becomes `aten.convolution`. An operator has
# **overloads**, one per signature: `aten.add.Tensor` and `aten.add.Scalar` are two overloads of the
# packet `aten.add`; `aten.mm.default` is the only overload of `aten.mm`. `str(func)` gives
# `"aten.mm.default"` and `str(func.overloadpacket)` gives `"aten.mm"`.
#
# A `TorchDispatchMode` (from `torch.utils._python_dispatch`) sees every operator call made while it is
# active, forward and backward alike (backward runs the derivative formulas, themselves aten calls such
# as `aten.mm` or `aten.convolution_backward`). Its method `__torch_dispatch__(self, func, types, args,
# kwargs)` receives the overload and its arguments, and must return what the call would return;
# calling `func(*args, **kwargs)` inside it runs the operator with the mode switched off, so the inner
# call is not seen a second time.
#
# **Counting FLOPs.** A matrix product of an (m, k) matrix by a (k, n) matrix does m·n·k
# multiply-adds, counted as **2·m·k·n** floating-point operations; `addmm(c, a, b)` counts only the
# product (the added `c` is free), `bmm` multiplies by the batch size, `baddbmm(c, a, b)` counts as the
# `bmm` of `a` and `b`. A convolution with input `x` of shape (N, C_in, ...), weight `w` of shape
# (C_out, C_in/groups, k...) and output of spatial shape `out`, counts **2·N·prod(out)·prod(w.shape)**:
# each output value is a dot product over `C_in/groups · prod(k)` inputs. The bias is not counted, and
# stride, padding, dilation and groups enter only through the shapes. This is the convention of
# `torch.utils.flop_counter.FlopCounterMode`.
#
# For `aten.convolution_backward(grad_out, x, w, ..., output_mask)` the count is the sum of two parts,
# each only when its entry of `output_mask` is true: the input gradient `output_mask[0]` costs as much
# as the forward convolution, `2·N·prod(grad_out spatial)·prod(w.shape)`; the weight gradient
# `output_mask[1]` is counted by `FlopCounterMode` as `2·N·C_in·C_out·prod(grad_out spatial)·prod(k)`
# with the input's full `C_in = x.shape[1]` (so for a grouped convolution it counts `groups` times the
# work actually done; we follow its convention). The bias gradient (`output_mask[2]`) is not counted.

# %%
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import FlopCounterMode


class PrintOps(TorchDispatchMode):
    """Prints each aten overload that reaches the dispatcher, then runs it unchanged."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        print("  ", func, "->", func.overloadpacket)
        return func(*args, **(kwargs or {}))


_lin = torch.nn.Linear(3, 2)
_xin = torch.randn(4, 3)
with PrintOps():  # backward: an mm for the weight's gradient (x needs none) and a sum for the bias
    _lin(_xin).sum().backward()
with FlopCounterMode(display=False) as _fc:
    _lin(_xin).sum().backward()
print({str(k): v for k, v in _fc.get_flop_counts()["Global"].items()},
      "forward addmm: 2*4*3*2 =", 2 * 4 * 3 * 2)

# %% [markdown]
# ### Exercise 6 · `OpLogger` (2 points)
#
# Write `class OpLogger(TorchDispatchMode)`, used as `with OpLogger() as log:`, that records the aten
# operators run inside the block and counts the FLOPs of matrix products and convolutions.
#
# * `log.ops` is a list of `str(func)` (such as `"aten.addmm.default"`) for every call that reaches
#   `__torch_dispatch__`, in call order, forward and backward.
# * `log.flops` is a dict from the packet name (`str(func.overloadpacket)`, such as `"aten.mm"`) to the
#   total FLOPs of all its calls, for `aten.mm`, `aten.addmm`, `aten.bmm`, `aten.baddbmm`,
#   `aten.convolution` and `aten.convolution_backward`, by the formulas above; other operators (`aten.mv`,
#   the in-place `aten.addmm_`, ...) and operators that never ran have no entry. The dict must equal
#   what `FlopCounterMode` reports for the same code (convolutions are not transposed here).
# * A new `OpLogger()` starts with an empty list and an empty dict.
# * Run every call unchanged: the block's results and gradients must be the same as without the mode,
#   and a mode active around the block (such as an outer `OpLogger`: loggers nest) still sees every call.
# * An exception raised inside the block goes through to the caller, and the mode is off afterwards
#   (`TorchDispatchMode` already does this in its `__enter__`/`__exit__`; keep it that way).

# %% [solution] id=op_logger_impl
class OpLogger(TorchDispatchMode):
    """Logs aten overloads in call order and counts matmul and convolution FLOPs per packet."""

    def __init__(self):
        super().__init__()
        ### BEGIN SOLUTION
        self.ops = []
        self.flops = {}
        ### END SOLUTION

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        ### BEGIN SOLUTION
        self.ops.append(str(func))  # before the call: an op that raises was still dispatched
        out = func(*args, **(kwargs or {}))
        name = str(func.overloadpacket)
        count = None
        if name in ("aten.mm", "aten.addmm"):
            a, b = args[-2], args[-1]
            count = 2 * a.shape[0] * a.shape[1] * b.shape[1]
        elif name in ("aten.bmm", "aten.baddbmm"):
            a, b = (args[0], args[1]) if name == "aten.bmm" else (args[1], args[2])
            count = 2 * a.shape[0] * a.shape[1] * a.shape[2] * b.shape[2]
        elif name == "aten.convolution":
            x, w = args[0], args[1]
            count = 2 * x.shape[0] * math.prod(out.shape[2:]) * math.prod(w.shape)
        elif name == "aten.convolution_backward":
            grad_out, x, w, mask = args[0], args[1], args[2], args[10]
            spatial = math.prod(grad_out.shape[2:])
            count = 0
            if mask[0]:
                count += 2 * x.shape[0] * spatial * math.prod(w.shape)
            if mask[1]:
                count += 2 * x.shape[0] * x.shape[1] * w.shape[0] * spatial * math.prod(w.shape[2:])
        if count is not None:
            self.flops[name] = self.flops.get(name, 0) + count
        return out
        ### END SOLUTION


# %% [tests] id=op_logger_tests points=2
_a, _b = torch.randn(3, 4), torch.randn(4, 5)
with OpLogger() as _log:
    _ab = _a @ _b
expect_equal(_log.ops, ["aten.mm.default"], "OpLogger().ops for a @ b with 2-d a and b")
expect_equal(_log.flops, {"aten.mm": 2 * 3 * 4 * 5}, "OpLogger().flops for a (3, 4) @ b (4, 5)")
expect_close(_ab, _a @ _b, "a @ b computed under OpLogger")
_conv = torch.nn.Conv2d(2, 4, 3, padding=1)
_img = torch.randn(1, 2, 5, 5, requires_grad=True)
with OpLogger() as _log:
    _conv(_img).sum().backward()
with FlopCounterMode(display=False) as _fc:
    _conv(_img).sum().backward()
expect_equal(_log.flops, {str(k): v for k, v in _fc.get_flop_counts()["Global"].items()},
             "OpLogger().flops for a Conv2d forward and backward (FlopCounterMode's numbers)")


def _fails_inside_logger():
    with OpLogger():
        raise ValueError("raised inside the block")


expect_raises(ValueError, _fails_inside_logger, "an error raised inside `with OpLogger():`")
expect_close(torch.ones(2) * 2, torch.full((2,), 2.0), "ops after the with block (the mode is off again)")
### BEGIN HIDDEN TESTS
run_hidden("00-01", "op_logger", globals())
### END HIDDEN TESTS

# %% [markdown]
# ## What to remember
#
# * A tensor is a header (shape, stride, offset) over flat storage; transpose, slice, select, expand
#   and `as_strided` write a new header and copy nothing.
# * `view` needs strides that can be merged block by block; `reshape` silently copies when they cannot,
#   so writing into its result may or may not change the original.
# * A result's dtype comes from categories and tiers: a Python number or a 0-dim tensor never widens a
#   tensor of its own category, but a higher category always wins.
# * Autograd notes each saved tensor's version; an in-place write after that makes backward refuse,
#   and the node's `_saved_...` attributes tell you which one.
# * Everything, forward and backward, reaches the dispatcher as aten overloads; a `TorchDispatchMode`
#   sees each one and can log or count it, as `FlopCounterMode` does (2 FLOPs per multiply-add).
