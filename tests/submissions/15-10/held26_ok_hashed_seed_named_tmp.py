"""Correct but unusual (held-out round 26): (1) the sampler seeds its private torch.Generator with a 64-bit
number derived from (seed, epoch) by SHA-256 (any int seed, negative or huge, maps to a valid manual_seed value;
the same (seed, epoch) gives the same order in every process; different epochs, different orders), then calls
torch.randperm with it; (2) atomic_save writes through tempfile.NamedTemporaryFile(dir=<target folder>,
delete=False): flush and fsync before closing, os.replace, and on any BaseException the temporary file is
removed and the same exception re-raised."""
from course.grading.class_run.submissions import edited

EXPECT = {"callbacks": "pass", "clipping": "pass", "sampler": "pass", "rng": "pass", "checkpoint": "pass",
          "trainer": "pass", "resume": "pass"}
CELLS = {
    "sampler_impl": edited(
        "15-10", "sampler_impl",
        ("        g = torch.Generator().manual_seed(self.seed * 1_000_003 + int(epoch))\n",
         "        import hashlib\n"
         "        digest = hashlib.sha256(f\"{self.seed}/{int(epoch)}\".encode()).digest()\n"
         "        g = torch.Generator().manual_seed(int.from_bytes(digest[:8], \"little\"))\n")),
    "checkpoint_impl": edited(
        "15-10", "checkpoint_impl",
        ("    fd, tmp = tempfile.mkstemp(dir=folder, prefix=\".tmp-\", suffix=\".pt\")\n"
         "    try:\n"
         "        with os.fdopen(fd, \"wb\") as f:\n"
         "            torch.save(obj, f)\n"
         "            f.flush()\n"
         "            os.fsync(f.fileno())\n"
         "        os.replace(tmp, path)\n",
         "    f = tempfile.NamedTemporaryFile(dir=folder, prefix=\".tmp-\", suffix=\".pt\", delete=False)\n"
         "    tmp = f.name\n"
         "    try:\n"
         "        with f:\n"
         "            torch.save(obj, f)\n"
         "            f.flush()\n"
         "            os.fsync(f.fileno())\n"
         "        os.replace(tmp, path)\n")),
}
