"""Round 28, correct answer written unusually: windows counts the windows with len(range(...)), passes
as_strided its arguments by keyword through the functional form, and checks its arguments in another
order. EXPECT pass everywhere."""
from course.grading.class_run.submissions import edited

EXPECT = {"view_meta": "pass", "windows": "pass", "reshape_view": "pass", "result_dtype": "pass",
          "stale_nodes": "pass", "op_logger": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    if x.dim() == 0:
        raise ValueError("windows needs a tensor with at least one dimension")
    if size < 1 or step < 1:
        raise ValueError(f"size and step must be at least 1, got size={size}, step={step}")
    length, st = x.shape[-1], x.stride(-1)
    count = max(0, (length - size) // step + 1)
    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(x.stride()[:-1]) + (step * st, st),
                        x.storage_offset())''',
    '''    if not (size >= 1 and step >= 1):
        raise ValueError("size and step must be at least 1")
    if not x.shape:
        raise ValueError("a 0-dim tensor has no last dimension")
    *lead, length = x.shape
    *lead_st, st = x.stride()
    count = len(range(0, length - size + 1, step))
    return torch.as_strided(x, size=(*lead, count, size), stride=(*lead_st, st * step, st),
                            storage_offset=x.storage_offset())'''))}
