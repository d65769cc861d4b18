"""Correct: CondBranchyNet's torch.cond branches each run the whole MLP (on 1 - t and on t) and return logits,
instead of choosing the input and running the MLP once after the cond: the branch subgraphs call the
module's own Linear layers (parameters lifted into the subgraphs), and nothing is cloned."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "pass", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl",
    ("        x = torch.cond(x.mean() > 0.5, lambda t: 1.0 - t, lambda t: t.clone(), (x,))\n"
     "        return self.fc2(torch.relu(self.fc1(x.flatten(1))))\n",
     "        def mlp(t):\n"
     "            return self.fc2(torch.relu(self.fc1(t.flatten(1))))\n\n"
     "        return torch.cond(x.mean() > 0.5, lambda t: mlp(1.0 - t), mlp, (x,))\n"))}
