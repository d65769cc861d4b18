"""The reference solution, plus code that writes to stderr, warns, and changes global settings."""
EXPECT_TOTAL = "full"
NOISE = r'''
import sys, warnings
print("debugging output on stderr", file=sys.stderr)
warnings.warn("a warning from the student's own code")
warnings.simplefilter("always")
'''
LAST = r'''
import torch, warnings
warnings.simplefilter("error")
torch.set_default_dtype(torch.float64)
torch.set_grad_enabled(False)
print("done", file=sys.stderr)
'''
def mutate(nb):
    import nbformat
    nb.cells.insert(2, nbformat.v4.new_code_cell(NOISE))
    nb.cells.append(nbformat.v4.new_code_cell(LAST))
