"""Held-out round 11: CondBranchyNet passes x.detach() to torch.cond ("the branch needs no gradient"), so the logits
carry autograd's graph to fc1 and fc2 but no longer to the input: the gradient of a loss with respect to the batch
(saliency maps, adversarial examples) is missing, where BranchyNet's is -dL/dx' on a bright batch. Exercise 2's
text: CondBranchyNet "computes exactly what BranchyNet computes"."""
from course.grading.class_run.submissions import edited

EXPECT = {"trace_mismatches": "pass", "cond_net": "fail", "export_dynamic": "pass", "op_inventory": "pass",
          "save_load": "pass"}
CELLS = {"cond_net_impl": edited("15-05", "cond_net_impl", ("(x,))", "(x.detach(),))"))}
