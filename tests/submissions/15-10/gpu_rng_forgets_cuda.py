"""Known-wrong: capture_rng_state snapshots torch's CPU generator, NumPy and Python but not the CUDA
generators, so a run resumed on CUDA draws other dropout masks. Without a GPU it behaves as the reference;
since round 10 test_cuda_generators sees it on CPU through a stand-in for two CUDA devices' generators."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"rng_impl": _c["edited"]("rng_impl", """    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
""", "")}
EXPECT = {"rng": "fail"}
# What a GPU must give it (make test-gpu, docs/gpu.md):
EXPECT_GPU = {"resume": "fail"}
