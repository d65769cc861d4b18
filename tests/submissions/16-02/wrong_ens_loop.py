"""A loop over the models: the right numbers, one forward per model."""
EXPECT = {"ensemble": "fail"}
CELLS = {"ensemble_impl": """
def ensemble_forward(models, x, per_model=False):
    return torch.stack([m(x[i] if per_model else x) for i, m in enumerate(models)])
"""}
