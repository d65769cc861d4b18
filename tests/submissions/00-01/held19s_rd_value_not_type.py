"""Round 19s: a Python number is sorted by its value, not its type: a float with no fractional part (2.0, -0.0)
counts as an int and a complex with no imaginary part (1+0j) as a float (the text: an int counts as torch.int64,
a float as torch.get_default_dtype() and a complex as the complex type of that default)."""
from course.grading.class_run.submissions import edited

EXPECT = {"result_dtype": "fail"}
CELLS = {"result_dtype_impl": edited("00-01", "result_dtype_impl", (
    '''        elif isinstance(v, bool):
            tiers[0].append(torch.bool)
        elif isinstance(v, int):
            tiers[0].append(torch.int64)
        elif isinstance(v, float):
            tiers[0].append(torch.get_default_dtype())
        elif isinstance(v, complex):''',
    '''        elif isinstance(v, bool):
            tiers[0].append(torch.bool)
        elif isinstance(v, int) or (isinstance(v, float) and v.is_integer()):  # a whole number is an int
            tiers[0].append(torch.int64)
        elif isinstance(v, float) or (isinstance(v, complex) and v.imag == 0):  # a real number is a float
            tiers[0].append(torch.get_default_dtype())
        elif isinstance(v, complex):'''))}
