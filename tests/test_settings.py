"""The grader's settings (course/settings.py): one default each, read when asked, and the README's
table is the one the module prints."""
import pytest

from course import REPO_ROOT, settings


def test_defaults_and_parsing():
    assert settings.current({}) == settings.Settings()
    s = settings.current({"COURSE_MEMORY_LIMIT_MB": "2048", "COURSE_SPARE_KERNEL": "0", "COURSE_FORKSERVER": "off",
                          "COURSE_ALLOW_CPU_GRADING": "1", "COURSE_SANDBOX": "auto", "COURSE_TASK_LIMIT": " "})
    assert (s.memory_limit_mb, s.spare_kernel, s.forkserver, s.allow_cpu_grading, s.sandbox, s.task_limit) == \
        (2048, False, False, True, "auto", 1024)
    with pytest.raises(ValueError, match="COURSE_TASK_LIMIT='many' is not a whole number"):
        settings.current({"COURSE_TASK_LIMIT": "many"})


def test_read_when_asked(monkeypatch):
    from course.judge.adapter import ProcessStudent
    monkeypatch.setenv("COURSE_CALL_TIMEOUT", "7")
    monkeypatch.setenv("COURSE_MEMORY_LIMIT_MB", "100")
    student = ProcessStudent([], {})
    assert student.call_timeout == 7 and student.memory_limit == 100 * 2**20


def test_readme_lists_every_setting():
    assert settings.table() in (REPO_ROOT / "README.md").read_text(), \
        "README's settings table is out of date: paste `python -m course.settings`"
