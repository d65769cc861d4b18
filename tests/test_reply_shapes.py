"""A reply's shape is the submission's to choose (red team 15). Red team 14 made ``zip`` fail a reply's own list cut
short; a submission owns its judge worker, though, and can send any other plain value where the probe sends a list.
An empty dict (or set, string, bytes, tensor) stopped ``zip`` just as an empty list did, and an empty tensor of
shape (0, 1, ..., 1) broadcasts against any expected tensor into a comparison of nothing, which
``torch.allclose`` calls close. Measured through the real worker and judge (seed 20261203): the known-wrong 15-04
EMA whose ``update`` ignores its argument kept 17/17 checks of its task with ``history`` sent as ``{}`` (15/17
without), and two known-wrong 15-09 monitors whose ``clear()`` touches ``.grad`` kept 21/21 with each ``.grad``
sent as an empty (0, 1, 1) tensor (20/21 without). ``expect.zip`` now knows every container of a reply, and the
hidden checks' modules get a ``torch`` whose ``allclose``/``isclose`` fail a broadcast that compares fewer values
than one side holds."""
import copy
import pickle
import runpy

import nbformat
import pytest
import torch
import torch as torch_itself  # the judge's plugin gives this module's `torch` its checked comparisons

from course import REPO_ROOT
from course.judge import expect
from course.judge.expect import CheckFailed

_FORGE = runpy.run_path(str(REPO_ROOT / "tests" / "submissions" / "_hostile" / "_forge.py"))


@pytest.fixture(autouse=True)
def _forget_replies():
    yield
    expect.forget_replies()


@pytest.mark.parametrize("empty", [{}, set(), frozenset(), "", b"", torch.zeros(0)],
                         ids=["dict", "set", "frozenset", "str", "bytes", "tensor"])
def test_any_empty_container_of_a_reply_fails_a_zip(empty):
    reply = {"history": empty}
    expect.remember_reply(reply)
    with pytest.raises(CheckFailed, match="holds 0 entries where the check compares 3"):
        list(expect.zip(reply["history"], [1, 2, 3]))


def test_a_view_of_a_reply_dict_is_the_reply():
    reply = {"grads": {"w": torch.ones(2)}}
    expect.remember_reply(reply)
    for view in (reply["grads"].keys(), reply["grads"].values(), reply["grads"].items()):
        with pytest.raises(CheckFailed, match="holds 1 entries where the check compares 2"):
            list(expect.zip(view, ["w", "b"]))
    judge_own = {"w": 1}
    assert list(expect.zip(judge_own.values(), [1, 2])) == [(1, 1)]   # the judge's own dict: the builtin's zip


def test_a_zero_dim_reply_tensor_in_a_zip_is_torchs_error():
    reply = {"t": torch.tensor(1.0)}
    expect.remember_reply(reply)
    with pytest.raises(TypeError):
        list(expect.zip(reply["t"], [1, 2]))


def test_checked_allclose_fails_a_broadcast_that_compares_less():
    T = expect.TORCH
    want = torch.randn(5, 3, dtype=torch.float64)
    assert torch_itself.allclose(torch.zeros(0, 1, 1, dtype=torch.float64), want)    # torch's own: close
    for got in (torch.zeros(0, 1, 1, dtype=torch.float64), torch.zeros(0, 1, 3, dtype=torch.float64)):
        with pytest.raises(CheckFailed, match="leaves 0"):
            T.allclose(got, want)
        with pytest.raises(CheckFailed, match="leaves 0"):
            T.isclose(want, got)
    assert T.allclose(want.clone(), want) and bool(T.isclose(want, want).all())
    assert bool(T.isclose(torch.ones(3), torch.tensor(1.0)).all())            # a scalar still broadcasts
    assert T.allclose(torch.zeros(0, 1), torch.zeros(0, 4))                     # nothing expected, nothing sent
    assert T.float64 is torch_itself.float64 and T.Tensor is torch_itself.Tensor and T.randn is torch_itself.randn


def test_an_empty_reply_tensor_fails_every_operation_that_broadcasts_it_into_fewer_values():
    """Red team 16: the operator forms of the broadcast above (``(got == want).all()``, ``got != want``,
    ``.eq``/``.sub``, ``torch.all(a == b)``, ``torch.where``), which no module global can replace: an empty reply
    tensor is of class ``expect.EmptyReply``, whose ``__torch_function__`` fails them, and so is every tensor
    computed from it (``got.isnan()``)."""
    want = torch.randn(3, 4, dtype=torch.float64)
    reply = {"out": torch.zeros(0, 1, 1, dtype=torch.float64), "none": torch.zeros(0, 4), "full": torch.ones(3, 4),
             "items": [torch.zeros(0, 1)], "param": torch.nn.Parameter(torch.zeros(0, 1, 1), requires_grad=False)}
    expect.remember_reply(reply)
    got = reply["out"]
    forms = {"==": lambda: (got == want).all(), "!=": lambda: (want != got).any(), "-": lambda: (got - want).abs(),
             "isnan ==": lambda: torch_itself.all(got.isnan() == want.isnan()), "eq": lambda: got.eq(want),
             "sub": lambda: want.sub(got), "where": lambda: torch_itself.where(want > 0, got, want),
             "equal": lambda: torch_itself.equal(got, want), "&": lambda: got.bool() & (want > 0),
             "in a list": lambda: bool((reply["items"][0] == torch.ones(2)).all()),
             "nn.Parameter": lambda: bool((reply["param"] == want).all())}
    for name, form in forms.items():
        with pytest.raises(CheckFailed, match="broadcasting the two leaves 0"):
            form()
            pytest.fail(f"{name} compared nothing")
    assert bool((reply["none"] == torch.zeros(0, 4)).all())                  # nothing expected, nothing sent
    index = {"i": torch.zeros(0, dtype=torch.int64)}
    expect.remember_reply(index)                                               # an index selects, it is no broadcast
    assert torch.ones(1)[index["i"]].shape == (0,) and torch.ones(4, 1).index_select(0, index["i"]).shape == (0, 1)
    assert bool((got == 0).all()) and bool(torch_itself.isnan(got).sum() == 0)  # no second tensor: torch's own
    assert type(reply["full"]) is torch.Tensor and bool((reply["full"] == want.new_ones(4)).all())  # non-empty: as is
    for back in (copy.deepcopy(got), pickle.loads(pickle.dumps(got))):  # sent back to a worker: a plain tensor
        assert type(back) is torch.Tensor and back.shape == (0, 1, 1)


def _grade(tmp_path, topic, spec, attack, task, k):
    from course.grading.class_run import submissions
    from course.judge.suite import run_suite
    nb = tmp_path / f"{spec}_forged.ipynb"
    submissions.write(submissions.SPECS_DIR / topic / f"{spec}.py", nb)
    n = nbformat.read(str(nb), as_version=4)
    n.cells.append(nbformat.v4.new_code_cell(attack))
    nbformat.write(n, str(nb))
    res = run_suite(topic, [str(nb)], sandbox="auto", seed=20261203, tasks=[task], pytest_args=("-k", k),
                    timeout=600)
    assert not res.error, res.error
    return res.for_notebook(str(nb))


def _forger(condition: str, replacement: str) -> str:
    """A notebook cell that relays the judge worker's replies on the protocol's descriptors (the attacker's reach
    inside grading that the worker's seal leaves open): a reply for which ``condition`` holds (names: probe, kwargs,
    r) is replaced by ``replacement``."""
    return _FORGE["rewriting"](condition, replacement)


EMA_HISTORY_AS_DICT = _forger('probe == "ema_fresh_live" and isinstance(r, dict)', '{**r, "history": {}}')


def test_a_reply_list_sent_as_an_empty_dict_fails_through_the_real_worker(tmp_path):
    """15-04's EMA that reads the model it was built from instead of update's argument: its worker sends the
    history as {} (the check zips it with the judge's expected states; passed before)."""
    checks = _grade(tmp_path, "15-04", "held9_ema_ignores_update_arg", EMA_HISTORY_AS_DICT, "ema",
                    "update_reads_its_argument")
    assert len(checks) == 2 and all(c.failed for c in checks), checks
    assert all("holds 0 entries where the check compares 3" in c.message for c in checks), checks


GRADS_AS_EMPTY = _forger('probe == "monitor_script" and (kwargs.get("actions") or [None])[-1] == ["grads"] '
                         'and isinstance(r, list)',
                         'r[:-1] + [{k: None if v is None else v.new_zeros(0, *[1] * v.dim()) for k, v in r[-1].items()}]')


def test_an_empty_tensor_broadcast_against_the_expected_fails_through_the_real_worker(tmp_path):
    """15-09's monitor whose clear() zeroes .grad: its worker sends each .grad as an empty (0, 1, 1) tensor, which
    torch.allclose broadcast against the expected gradient and called close (passed before)."""
    checks = _grade(tmp_path, "15-09", "gap_mon_clear_zeroes_grad", GRADS_AS_EMPTY, "monitor",
                    "clear_and_independent_monitors")
    assert len(checks) == 1 and checks[0].failed, checks
    assert "broadcasting the two leaves 0" in checks[0].message, checks[0].message


PIPELINE_NO_RANKS = _forger('probe == "run_pipeline" and isinstance(r, dict)', '{**r, "ranks": []}')


def test_a_pipeline_reply_without_ranks_fails_through_the_real_worker(tmp_path):
    """16-04's pipeline whose rank 1 overwrites its gradients: its worker sends the records of no rank, which left
    every pipeline check nothing to compare (red team 15: 9/9 of the task, 1/9 without)."""
    checks = _grade(tmp_path, "16-04", "blind2_pipeline_rank1_grad_overwritten", PIPELINE_NO_RANKS, "pipeline",
                    "pipeline_grads_match_unsplit")
    assert checks and all(c.failed for c in checks), checks
    assert all("reported 0 ranks' records, expected 2" in c.message for c in checks), checks


CLAMP_OUT_AS_EMPTY = _forger('probe == "single_backward" and kwargs.get("name") == "Clamp" and isinstance(r, dict) '
                             'and bool(kwargs["x"].isnan().any())', '{**r, "out": r["out"].new_zeros(0, 1)}')


def test_an_empty_output_against_a_nan_pattern_fails_through_the_real_worker(tmp_path):
    """15-01's Clamp that turns NaN into 0: its worker sends the output as an empty (0, 1) tensor, which
    `(out.isnan() == x.isnan()).all()` broadcast into a comparison of nothing (red team 15's operator form)."""
    checks = _grade(tmp_path, "15-01", "wrong_clamp_nan_to_zero", CLAMP_OUT_AS_EMPTY, "clamp", "clamp_nan")
    assert len(checks) == 1 and checks[0].failed, checks
    assert "expected a tensor of shape (10,), got (0, 1)" in checks[0].message, checks[0].message


FAKE_QUANT_GRAD_AS_EMPTY = _forger('probe == "fake_quant_in_graph" and isinstance(r, dict)',
                                   '{**r, "grad": r["grad"].new_zeros(0, 1)}')


def test_an_empty_gradient_against_an_elementwise_comparison_fails_through_the_real_worker(tmp_path):
    """16-05's fake_quantize keeping its mask in a module global: its worker sends x's gradient as an empty (0, 1)
    tensor, which `grad != want` broadcast into a comparison of nothing (the operator form, as 15-01's Clamp)."""
    checks = _grade(tmp_path, "16-05", "held13_fq_global_mask", FAKE_QUANT_GRAD_AS_EMPTY, "fake_quant",
                    "gradient_in_a_larger_graph")
    assert len(checks) == 1 and checks[0].failed, checks
    assert "the shape of the gradient" in checks[0].message and "(0, 1)" in checks[0].message, checks[0].message


def _compress_grads_as_empty(make: str) -> str:
    return _forger('probe == "hooked_grads" and isinstance(r, dict) and isinstance(r.get("grads"), list)',
                   '{**r, "grads": [' + make + ' for g in r["grads"]]}')


@pytest.mark.parametrize("make", ["g.new_zeros(0, *[1] * g.dim())",
                                  "torch.nn.Parameter(g.new_zeros(0, *[1] * g.dim()), requires_grad=False)"],
                         ids=["tensor", "parameter"])
def test_an_empty_gradient_against_a_norm_of_differences_fails_through_the_real_worker(tmp_path, make):
    """Red team 16: 00-02's compressed saved tensors, unpack rounding to integers (every gradient wrong): its worker
    sends each gradient as an empty (0, 1, 1) tensor, and `(g - w).norm() / w.norm()` of nothing is 0, within the
    2 % allowed (passed before: 13/18 checks of the task, 10/18 without; 15/18 with context_manager's probe too).
    Caught by ``expect.EmptyReply``, in no check of the topic. An empty nn.Parameter (plain data allows one) escaped
    the first version of it, which took the exact type torch.Tensor only (2/2 of these checks)."""
    from course.grading.class_run import submissions
    nb = tmp_path / "compress_rounds_forged.ipynb"
    n = submissions.reference("00-02")
    cells = [c for c in n.cells if "return data if dtype is None else data.to(dtype)" in c.source]
    assert len(cells) == 1
    cells[0].source = cells[0].source.replace("else data.to(dtype)", "else data.to(dtype).round()")
    n.cells.append(nbformat.v4.new_code_cell("import torch\n" + _compress_grads_as_empty(make)))
    nbformat.write(n, str(nb))
    from course.judge.suite import run_suite
    res = run_suite("00-02", [str(nb)], sandbox="auto", seed=20261203, tasks=["compress"],
                    pytest_args=("-k", "bytes_shrink or pool_indices"), timeout=600)
    assert not res.error, res.error
    checks = res.for_notebook(str(nb))
    assert len(checks) == 3 and all(c.failed for c in checks), checks
    assert all("broadcasting the two leaves 0" in c.message for c in checks), [c.message for c in checks]


ZERO_NO_RANKS = _forger('probe == "run_zero" and isinstance(r, dict)', '{**r, "ranks": []}')


def test_a_zero_reply_without_ranks_fails_through_the_real_worker(tmp_path):
    """16-04's ZeRO-1 that sums the ranks' gradients instead of averaging them: its worker sends the records of no
    rank, and every check that builds its frames with `for rank, fr in enumerate(rec["ranks"])` compares nothing
    (red team 16: 9/10 checks of the zero1 task, 1/10 without; now Zero.steps counts the ranks' records, as the
    pipeline's checks have since red team 15, 4cfb8f2)."""
    checks = _grade(tmp_path, "16-04", "blind4_zero1_sum_not_mean", ZERO_NO_RANKS, "zero1", "zero1_matches_adamw")
    assert checks and all(c.failed for c in checks), checks
    assert all("ranks' records" in c.message for c in checks), [c.message for c in checks]


EXPORT_NO_OUTPUTS = _forger('probe == "export_dynamic" and isinstance(r, dict)', '{**r, "outputs": []}')


def test_a_slice_of_an_emptied_reply_list_fails_through_the_real_worker(tmp_path):
    """Red team 16: 15-05's export_dynamic_batch that forgets dynamic_shapes (a static program): its worker sends
    `outputs` as [], and `zip(sizes[:3], want, res["outputs"][:3])` (a slice: no longer the reply expect.zip knows)
    compared nothing; both test_accepts_the_range checks passed (2 of the task's 4.4 weight, 0.4 without)."""
    checks = _grade(tmp_path, "15-05", "wrong_tie_and_static_export", EXPORT_NO_OUTPUTS, "export_dynamic",
                    "accepts_the_range")
    assert len(checks) == 2 and all(c.failed for c in checks), checks
    assert all("expected one result per batch given (5), got 0" in c.message for c in checks), checks
