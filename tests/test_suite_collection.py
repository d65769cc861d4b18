"""A hidden test file that does not import is the course's error, never a score: pytest collects the other files,
exits 2 ("Interrupted: 1 error during collection") and the missing file's checks would simply be absent from every
notebook's results (found in round 24: the suite printed only its seed line)."""
import shutil

from course import SOURCE_DIR
from course import notebook as nbtools
from course.judge import suite


def test_a_test_file_that_does_not_import_fails_the_run(tmp_path, monkeypatch):
    tests = tmp_path / "tests"
    shutil.copytree(suite.TESTS_DIR / "00-01", tests / "00-01", ignore=shutil.ignore_patterns("__pycache__"))
    (tests / "conftest.py").write_text('pytest_plugins = ["course.judge.pytest_plugin"]\n')  # as tests/conftest.py
    (tests / "00-01" / "test_zz_broken.py").write_text("import pytest\n\ndef test_broken(:\n    pass\n")
    monkeypatch.setattr(suite, "TESTS_DIR", tests)
    res = suite.run_suite("00-01", nbtools.first_in(SOURCE_DIR / "00-01"), sandbox="auto", seed=1,
                          tasks=["result_dtype"])
    assert res.error and "could not be collected" in res.error and "test_zz_broken.py" in res.error, res.error
    assert "SyntaxError" in res.error, res.error
