"""Round 18: capture_activations keeps one module-level dict, clears it at the start of each call and returns
it, so a result the caller still holds from an earlier call changes under it: after a second call on other
names the first result no longer maps its names to their outputs ("returns a dict mapping each requested
submodule name ... to that submodule's output")."""
from course.grading.class_run.submissions import edited

EXPECT = {"forward_hooks": "fail"}
CELLS = {"capture_impl": edited("15-01", "capture_impl", (
    """def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:""",
    """_ACTIVATIONS: dict = {}


def capture_activations(model: nn.Module, names: list[str], x: torch.Tensor) -> dict[str, torch.Tensor]:"""), (
    """    captured, handles = {}, []""",
    """    _ACTIVATIONS.clear()
    captured, handles = _ACTIVATIONS, []"""))}
