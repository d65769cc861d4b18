"""NumPy's state is stored as (kind, keys, pos) only; restore fills in has_gauss=0, cached=0.0, so a
cached Box-Muller value pending at capture time is lost (np.random.randn after restore differs)."""
CELLS = {"rng_impl": '''def capture_rng_state() -> dict:
    kind, keys, pos, _, _ = np.random.get_state()
    state = {"torch": torch.get_rng_state(), "numpy": (kind, torch.from_numpy(keys.astype(np.int64)), int(pos)),
             "python": random.getstate()}
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng_state(state: dict) -> None:
    torch.set_rng_state(state["torch"])
    kind, keys, pos = state["numpy"]
    np.random.set_state((kind, keys.numpy().astype(np.uint32), pos, 0, 0.0))
    random.setstate(state["python"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])
'''}
EXPECT = {"rng": "fail"}
