"""capture_rng_state records seeds (torch.initial_seed and fresh seeds for NumPy and Python) and restore
re-seeds: the generators go back to the start of their streams, not to where they were."""
CELLS = {"rng_impl": '''def capture_rng_state() -> dict:
    return {"torch": torch.initial_seed(), "numpy": 1234, "python": 1234}


def restore_rng_state(state: dict) -> None:
    torch.manual_seed(state["torch"])
    np.random.seed(state["numpy"])
    random.seed(state["python"])
'''}
EXPECT = {"rng": "fail"}
