"""Two realistic mistakes; the other tasks are the reference solution.

- trace_mismatches calls a difference only when it exceeds 1e-2 (a "reasonable" tolerance that is far
  looser than torch.allclose's defaults), and lets the TracerWarning escape to stderr.
- CondBranchyNet keeps the Python `if` on x.mean(): eager outputs are right, but torch.export
  cannot capture it.
"""
EXPECT = {"trace_mismatches": "fail", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
JUDGE_PASS = True  # judged on its passing tasks too: a mistake in one task costs no points in another

CELLS = {
    "trace_mismatches_impl": '''
def trace_mismatches(model: nn.Module, example: torch.Tensor, inputs: list) -> list:
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
        return [bool((traced(x) - model(x)).abs().max() > 1e-2) for x in inputs]
''',
    "cond_net_impl": '''
class CondBranchyNet(nn.Module):
    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        if x.mean() > 0.5:
            x = 1.0 - x
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
''',
}
