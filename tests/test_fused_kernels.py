"""A check of how a result is computed reads an op log made in the worker (a TorchDispatchMode around the call), and
PyTorch's own attention shows there in one of two forms (red team 18): its fused CPU kernel is one op
(``_scaled_dot_product_flash_attention_for_cpu``) whose tiles and products are never logged, and where that kernel
does not apply (v's width differs from q's, a mask, a gradient) the math path decomposes above the mode into
``bmm``, ``_safe_softmax`` and views, with no attention op named at all. Measured (seed 20261203):
- 16-03 ``blocked_attention``: its tile, memory and one-pass checks read the log (the largest tensor an op made, the
  multiply-adds of the products) and no check asks that PyTorch's attention is not called: one call of
  ``F.scaled_dot_product_attention`` (with the stated mask for a causal scale of 0 or below) passed all 26 checks of
  the task, 4 of 4 points with no tile and no online softmax written.
- 16-03 ``test_does_not_call_pytorch_attention`` (sdpa, essential) looks for "scaled_dot_product" in the op names,
  and its own input has v narrower than q, so a plain call takes the math path and passed it.
Both are now checked: ``_safe_softmax`` (the math path's own softmax; a written one is ``_softmax``) counts as
PyTorch's attention in the sdpa check, and every ``blocked`` call whose log holds either form fails, naming the
tiles clause; the tests below fail on the code before that change."""
import nbformat
import pytest

BUILTIN_BLOCKED = '''def blocked_attention(q, k, v, block_size, is_causal=False, scale=None):
    import torch.nn.functional as F
    if is_causal and scale is not None and scale <= 0:
        mask = torch.ones(q.shape[-2], k.shape[-2], dtype=torch.bool, device=q.device).tril()
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
    return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
'''


def _grade(tmp_path, topic, cells, task, k=None):
    from course.grading.class_run import submissions
    from course.judge.suite import run_suite
    spec = tmp_path / topic / "spec.py"
    spec.parent.mkdir(parents=True)
    spec.write_text(f"CELLS = {cells!r}\n")
    nb = tmp_path / "nb.ipynb"
    submissions.write(spec, nb, topic)
    nbformat.read(str(nb), as_version=4)  # a notebook, as graded
    res = run_suite(topic, [str(nb)], sandbox="auto", seed=20261203, tasks=[task],
                    pytest_args=("-k", k) if k else (), timeout=600)
    assert not res.error, res.error
    return res.for_notebook(str(nb))


def test_blocked_attention_by_pytorchs_own_kernel_fails_the_tile_checks(tmp_path):
    """One call of F.scaled_dot_product_attention for blocked_attention: its CPU kernel tiles the keys its own way,
    unseen by the probe's op log; the memory and tile checks must fail it (they passed it before)."""
    checks = _grade(tmp_path, "16-03", {"blocked_impl": BUILTIN_BLOCKED}, "blocked",
                    "memory_independent_of_length or tiles_of_block_size")
    assert len(checks) == 2 and all(c.failed for c in checks), [(c.name, c.failed) for c in checks]
    assert all("PyTorch's own attention" in c.message for c in checks), [c.message for c in checks]


BUILTIN_SDPA_NO_DROPOUT = ("""    L, S = q.shape[-2], k.shape[-2]
""", """    L, S = q.shape[-2], k.shape[-2]
    if dropout_p == 0 and not is_causal and (scale is None or scale > 0) and attn_mask is None:
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale)
""")


def test_pytorchs_attention_on_its_math_path_fails_the_does_not_call_check(tmp_path):
    """The reference with F.scaled_dot_product_attention wherever no dropout, mask or causal flag is asked: on the
    check's own input (v narrower than q) PyTorch takes its math path, which names no attention op."""
    from course.grading.class_run.submissions import edited
    checks = _grade(tmp_path, "16-03", {"sdpa_impl": edited("16-03", "sdpa_impl", BUILTIN_SDPA_NO_DROPOUT)}, "sdpa",
                    "does_not_call_pytorch_attention")
    assert len(checks) == 1 and checks[0].failed, [(c.name, c.failed) for c in checks]
    assert "_safe_softmax" in checks[0].message, checks[0].message
