"""Round 25: the forward convolution is counted as 2·N·prod(out)·C_out·(C_in/groups)·prod(k) with a true
division, the text's own "C_in/groups" typed as written: a float that equals FlopCounterMode's int for every
small layer and loses the last digits past 2**53, which a convolution on meta tensors reaches for free
(input (3**14, 81, 243, 243), weight (243, 27, 3, 3), groups 3: 32807579816705922 FLOPs, the float gives
32807579816705920). Breaks "The dict must equal what FlopCounterMode reports for the same code"."""
from course.grading.class_run.submissions import edited

EXPECT = {"op_logger": "fail"}
CELLS = {"op_logger_impl": edited("00-01", "op_logger_impl", (
    '''            count = 2 * x.shape[0] * math.prod(out.shape[2:]) * math.prod(w.shape)''',
    '''            count = 2 * x.shape[0] * math.prod(out.shape[2:]) * w.shape[0] * (x.shape[1] / args[8]) \\
                * math.prod(w.shape[2:])'''))}
