"""Wrong (held-out round 30): relu's value is computed as (a + |a|) / 2, which overflows for inputs above
half the dtype's largest value and gives NaN at -inf. Violates "Each returns a new Value whose .data equals
torch's result for the same tensors: ... its values".
Goes wrong on: Value(torch.tensor([40000.], dtype=torch.float16)).relu().data is inf (torch: 40000.);
Value(torch.tensor([2e38])).relu().data is inf; Value(torch.tensor([-inf])).relu().data is nan (torch: 0.)."""
from course.grading.class_run.submissions import edited

EXPECT = {'engine': 'fail'}
CELLS = {"engine_impl": edited("00-02", "engine_impl",
    ("return Value(a.clamp(min=0), (self,),", "return Value((a + a.abs()) / 2, (self,),"),
)}
