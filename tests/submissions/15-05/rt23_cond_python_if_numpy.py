"""Red team 23 (held11_cond_python_if_eager read through .numpy() (a numpy bool), which the probe's list of reads did not
name: cond_net kept full marks): CondBranchyNet keeps the Python `if x.mean() > 0.5` in eager mode and uses torch.cond only
while torch.export traces it (torch.compiler.is_exporting()). Export keeps both sides and eager logits are right,
but every other tracer (torch.jit.trace, torch.compile(fullgraph=True)) meets a Python bool of a tensor value.
Exercise 2's text: "no Python `if` on a tensor value (use torch.cond, or an equivalent branch-free formula)"."""

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": '''class CondBranchyNet(nn.Module):
    """BranchyNet without a Python `if` on a tensor value, so that torch.export keeps both sides of the branch."""

    def __init__(self, hidden: int = 32):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, 10)

    def forward(self, x):
        if torch.compiler.is_exporting():
            x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))
        elif (x.mean() > 0.5).numpy():
            x = 1.0 - x
        return self.fc2(torch.relu(self.fc1(x.flatten(1))))
'''}
