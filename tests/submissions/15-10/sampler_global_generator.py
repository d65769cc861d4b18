"""permutation() seeds the GLOBAL torch generator (torch.manual_seed) instead of a private Generator:
the order is right, but every epoch start resets the stream the model's dropout uses."""
import runpy
from pathlib import Path

_c = runpy.run_path(str(Path(__file__).with_name("_common.py")))

CELLS = {"sampler_impl": _c["edited"]("sampler_impl", """        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))
        return torch.randperm(self.num_samples, generator=g).tolist()""",
                                      """        torch.manual_seed(self.seed * 1_000_003 + int(epoch))
        return torch.randperm(self.num_samples).tolist()""")}
EXPECT = {"sampler": "fail"}
