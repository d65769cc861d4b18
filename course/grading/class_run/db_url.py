"""The gradebook's database URL: which driver a bare ``postgresql://`` means, and how to print it."""
from __future__ import annotations

from pathlib import Path


def default(root: Path) -> str:
    """The course root's own gradebook (nbgrader_config.py's ``db_url``)."""
    return f"sqlite:///{Path(root) / 'gradebook' / 'gradebook.db'}"


def normalize(url: str | None) -> str | None:
    """``postgresql://`` means the psycopg (3) driver in SQLAlchemy 2.1, psycopg2 before it; the
    course installs psycopg2 (requirements.txt), so a bare ``postgresql://`` is pinned to it."""
    if url and url.startswith("postgresql://"):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return "postgresql+psycopg2://" + url[len("postgresql://"):]
    return url


def shown(url: str) -> str:
    """The URL as logs and tables may print it: any password replaced by ***."""
    try:
        from sqlalchemy.engine import make_url
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@", 1)[-1] if "@" in url else url


# The environment variable each driver family's client library reads a password from, when the URL has none.
PASSWORD_ENV = {"postgresql": "PGPASSWORD"}

NOTICE = ("notice: the gradebook URL's password was on this command line, which every account on this machine reads "
          "(/proc/<pid>/cmdline, `ps`) while it runs; the commands this one starts get the URL without it (in {env}, "
          "which only this account reads); keep it in ~/.pgpass and leave it out of --db")


def without_password(url: str | None) -> tuple[str | None, str | None, str | None]:
    """``url`` without its password, the password, and the environment variable the driver reads it from; the URL
    as it is (and two Nones) where it has no password or its driver reads none from the environment.

    A command line is no place for a password: without ``hidepid`` on ``/proc`` every account on the machine reads
    every process's arguments, and the class run's commands (the pipeline, its nbgrader commands where the runner is
    off, the Slurm tasks that run for hours on nodes students' jobs share) carried ``--db`` and
    ``--CourseDirectory.db_url`` whole: with it, a student connects to the gradebook and writes any grade (red team
    22, host side). Process environments are readable only by their own account."""
    if not url:
        return url, None, None
    try:
        from sqlalchemy.engine import make_url
        parsed = make_url(url)
    except Exception:
        return url, None, None
    env = PASSWORD_ENV.get(parsed.get_backend_name())
    if parsed.password is None or env is None:
        return url, None, None
    return parsed._replace(password=None).render_as_string(hide_password=False), str(parsed.password), env
