"""Round 19: a correct windows that counts the windows as len(range(0, length - size + 1, step)) (empty when
size is larger than the last dimension) and calls torch.as_strided with keyword arguments."""
from course.grading.class_run.submissions import edited

EXPECT = {"windows": "pass"}
CELLS = {"windows_impl": edited("00-01", "windows_impl", (
    '''    length, st = x.shape[-1], x.stride(-1)
    count = max(0, (length - size) // step + 1)
    return x.as_strided(tuple(x.shape[:-1]) + (count, size), tuple(x.stride()[:-1]) + (step * st, st),
                        x.storage_offset())''',
    '''    *lead, length = x.shape
    *lead_st, st = x.stride()
    count = len(range(0, length - size + 1, step))
    return torch.as_strided(x, size=(*lead, count, size), stride=(*lead_st, step * st, st),
                            storage_offset=x.storage_offset())'''))}
