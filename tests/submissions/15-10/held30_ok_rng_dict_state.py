"""Correct, written unusually (held-out round 30): capture_rng_state keeps NumPy's state in its dict form
(np.random.get_state(legacy=False)) with the key array stored as a torch tensor, takes torch's state from
torch.random.default_generator.get_state(), and restore_rng_state rebuilds the dict for np.random.set_state
(which accepts both forms) and restores Python's random through a fresh tuple. Every generator is put back
exactly, the cached Gaussians included."""
EXPECT = {"clipping": "pass", "sampler": "pass", "rng": "pass", "callbacks": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {"rng_impl": '''def capture_rng_state() -> dict:
    """A snapshot of the torch, CUDA (if available), NumPy and Python random generators."""
    ### BEGIN SOLUTION
    np_state = np.random.get_state(legacy=False)
    snap = {
        "torch": torch.random.default_generator.get_state(),
        "numpy": {"bit_generator": np_state["bit_generator"],
                  "key": torch.tensor(np_state["state"]["key"].astype(np.int64)),
                  "pos": int(np_state["state"]["pos"]),
                  "has_gauss": int(np_state["has_gauss"]), "gauss": float(np_state["gauss"])},
        "python": random.getstate(),
    }
    if torch.cuda.is_available():
        snap["cuda"] = [s.clone() for s in torch.cuda.get_rng_state_all()]
    return snap
    ### END SOLUTION


def restore_rng_state(state: dict) -> None:
    """Put every generator back to the snapshot taken by capture_rng_state."""
    ### BEGIN SOLUTION
    n = state["numpy"]
    np.random.set_state({"bit_generator": n["bit_generator"],
                         "state": {"key": np.asarray(n["key"].tolist(), dtype=np.uint32), "pos": int(n["pos"])},
                         "has_gauss": int(n["has_gauss"]), "gauss": float(n["gauss"])})
    torch.random.default_generator.set_state(state["torch"])
    version, internal, gauss_next = state["python"]
    random.setstate((version, tuple(internal), gauss_next))
    if torch.cuda.is_available() and "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])
    ### END SOLUTION
'''}
