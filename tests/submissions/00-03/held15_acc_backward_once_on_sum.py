"""Runs the micro-batches' forwards, then one backward() on the sum of their weighted losses.

The gradients come out right, but the text says to call backward() on each micro-batch's weighted loss
(after its forward): one backward on the sum keeps every micro-batch's graph alive at once, the memory
that accumulation exists to save."""
from course.grading.class_run.submissions import edited

EXPECT = {"accumulate": "fail"}
CELLS = {"accumulate_impl": edited("00-03", "accumulate_impl", (
    """    total = 0.0
    for xb, yb in zip(inputs.split(size), targets.split(size)):
        loss = loss_fn(model(xb), yb)
        weight = xb.shape[0] / n
        (loss * weight).backward()
        total += loss.item() * weight
    return total""",
    """    total = 0.0
    weighted = []
    for xb, yb in zip(inputs.split(size), targets.split(size)):
        loss = loss_fn(model(xb), yb)
        weight = xb.shape[0] / n
        weighted.append(loss * weight)
        total += loss.item() * weight
    sum(weighted).backward()
    return total"""))}
