"""find_leaks lists only objects whose type is exactly torch.Tensor, so a leaked nn.Parameter (a Tensor
subclass) born in a step is never reported."""
from course.grading.class_run.submissions import edited

EXPECT = {"leaks": "fail"}
CELLS = {
    "leaks_impl": edited("15-09", "leaks_impl",
    (('    # issubclass(type(o), ...) rather than isinstance: isinstance reads o.__class__, which a few deprecated\n'
      '    # module objects turn into a warning.\n'
      '    return [o for o in gc.get_objects() if issubclass(type(o), torch.Tensor)]\n'),
     '    return [o for o in gc.get_objects() if type(o) is torch.Tensor]\n')),
}
