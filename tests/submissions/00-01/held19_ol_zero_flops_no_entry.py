"""Round 19: a product or convolution call that counts 0 FLOPs (an empty matrix, a convolution backward asked
only for the bias gradient) leaves no entry, where FlopCounterMode reports the packet with 0 (the text: the dict
must equal what FlopCounterMode reports; only operators that never ran have no entry)."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''        if count is not None:
            self.flops[name]''',
    '''        if count:
            self.flops[name]'''))}
