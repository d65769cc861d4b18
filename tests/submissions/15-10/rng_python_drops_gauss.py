"""Python's random state is stored as its key tuple only and rebuilt with gauss_next=None: a pending
random.gauss value is lost (random.gauss after restore differs)."""
CELLS = {"rng_impl": '''def capture_rng_state() -> dict:
    version, internal, _ = random.getstate()
    state = {"torch": torch.get_rng_state(), "numpy": np.random.get_state(),
             "python": (version, list(internal))}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng_state(state: dict) -> None:
    torch.set_rng_state(state["torch"])
    np.random.set_state(state["numpy"])
    version, internal = state["python"]
    random.setstate((version, tuple(internal), None))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
'''}
EXPECT = {"rng": "fail"}
