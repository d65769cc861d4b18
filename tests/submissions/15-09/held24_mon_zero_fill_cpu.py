"""norms() flattens each module's received gradients into one float64 vector and fills a parameter that received no
gradient with torch.zeros(p.numel(), dtype=torch.float64): created without device=, that filler is on the CPU. On a GPU
a module with one parameter that received a gradient and one that received none (an unused bias, a parameter used only
on some batches) concatenates a CUDA and a CPU tensor and raises "Expected all tensors to be on the same device".
Breaks "one that received none counts zero" for models on a GPU; on the CPU the answer is right, so every CPU check
passes and only the GPU-marked test_norms_of_a_model_on_the_gpu (make test-gpu) can catch it."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "pass", "leaks": "pass"}
EXPECT_GPU = {"monitor": "fail"}
CELLS = {"monitor_impl": edited("15-09", "monitor_impl", (
    """            total = torch.zeros((), dtype=torch.float64)
            for p in params:
                if id(p) in self.sums:
                    total = total + self.sums[id(p)].double().pow(2).sum()
            out[name] = float(total.sqrt())
""",
    """            flat = torch.cat([self.sums[id(p)].reshape(-1).double() if id(p) in self.sums
                              else torch.zeros(p.numel(), dtype=torch.float64) for p in params])
            out[name] = float(torch.linalg.vector_norm(flat))
"""))}
