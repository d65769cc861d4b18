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
import nbformat
import pytest
import torch
import torch as torch_itself  # the judge's plugin gives this module's `torch` its checked comparisons

from course.judge import expect
from course.judge.expect import CheckFailed


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
    """A notebook cell that wraps the judge worker's Worker.call (the attacker's reach inside grading): a reply
    for which ``condition`` holds (names: probe, kwargs, r) is replaced by ``replacement``."""
    return f'''
import sys as _s
_w = _s.modules.get("course.judge.worker")
if _w is not None:
    _real = _w.Worker.call
    def _forged(self, module, probe, kwargs):
        r = _real(self, module, probe, kwargs)
        if {condition}:
            r = {replacement}
        return r
    _w.Worker.call = _forged
'''


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
