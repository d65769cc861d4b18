"""`make report` and `make grade-cluster` refuse a gradebook password typed as make's DB=... (red team 24, host side:
the Python side moves it out of its own command line, but make's stays readable by every account for the run)."""
import subprocess

import pytest

from course import REPO_ROOT


def _make(*args):
    return subprocess.run(["make", "-s", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("target", ["report", "grade-cluster"])
@pytest.mark.parametrize("url", ["postgresql+psycopg2://grader:s3cret@db:5432/gradebook",
                                 "postgresql+psycopg2://grader@db:5432/gradebook?sslmode=require&password=s3cret"])
def test_a_password_on_makes_command_line_is_refused(target, url):
    r = _make(target, f"DB={url}", "DRY=1")
    assert r.returncode == 2 and "~/.pgpass" in r.stderr, (r.returncode, r.stderr[-500:])
    assert "s3cret" not in r.stdout + r.stderr


def test_a_url_without_a_password_goes_through():
    r = _make("-n", "report", "DB=postgresql+psycopg2://grader@db-host:5432/gradebook")
    assert r.returncode == 0 and "course.grading.report" in r.stdout, r.stderr[-500:]
