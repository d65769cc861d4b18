"""Round 16: save_exported exports an eval() copy of the model ("a deployable file is for inference"): for a
model in training mode (dropout, BatchNorm with batch statistics) the saved program computes eval-mode logits,
not the model's ("export model ... on example ... and write it with torch.export.save")."""
from course.grading.class_run.submissions import edited

EXPECT = {"save_load": "fail"}
CELLS = {"save_load_impl": edited("15-05", "save_load_impl", (
    "    torch.export.save(torch.export.export(model, (example,), dynamic_shapes=({0: batch},)), path)",
    """    import copy
    frozen = copy.deepcopy(model).eval()
    torch.export.save(torch.export.export(frozen, (example,), dynamic_shapes=({0: batch},)), path)"""))}
