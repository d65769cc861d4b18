"""The gradebook's database URL: which driver a bare ``postgresql://`` means, and how to print it."""
from __future__ import annotations

import os
import sys
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
    """The URL as logs and tables may print it: any password replaced by ***, the one in its query too."""
    try:
        from sqlalchemy.engine import make_url
        parsed = make_url(url)
        if QUERY_PASSWORD in parsed.query:
            parsed = parsed.update_query_dict({QUERY_PASSWORD: "***"})
        return parsed.render_as_string(hide_password=True).replace("=%2A%2A%2A", "=***")
    except Exception:
        import re
        return re.sub(r"([?&]password=)[^&]*", r"\1***", url.split("@", 1)[-1] if "@" in url else url)


# A password may also come as the URL's ``password`` query parameter, libpq's keyword: SQLAlchemy hands the query to
# the driver (``postgresql+psycopg2://grader@db/gradebook?password=PW`` connects), and it overrides the one before "@".
# Each step below that moved or hid the password before "@" left this one on every command line and in the pipeline's
# last line (red team 24, host side).
QUERY_PASSWORD = "password"


def _query_password(query) -> str | None:
    value = query.get(QUERY_PASSWORD)
    if isinstance(value, tuple):
        value = value[-1] if value else None
    return None if value is None else str(value)


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
    password = _query_password(parsed.query)
    password = password if password is not None else None if parsed.password is None else str(parsed.password)
    if password is None or env is None:
        return url, None, None
    stripped = parsed._replace(password=None).difference_update_query([QUERY_PASSWORD])
    return stripped.render_as_string(hide_password=False), password, env


MOVED_ENV = "COURSE_DB_PASSWORD_MOVED"  # set by reexec_without_password: the variable it moved the password into


def _strip_arg(arg: str) -> tuple[str, str | None, str | None]:
    """``arg`` (a URL, or ``--option=URL``) without a URL's password (before "@" or in its query), the password and
    its variable."""
    head, sep, tail = arg.partition("=") if arg.startswith("--") else ("", "", arg)
    if "://" not in tail:
        return arg, None, None
    from urllib.parse import parse_qsl, unquote, urlsplit  # not sqlalchemy: its import alone is most of the time until exec
    try:
        parts = urlsplit(tail)
        password = parts.password
    except ValueError:
        return arg, None, None
    env = PASSWORD_ENV.get(parts.scheme.split("+")[0])
    segments = parts.query.split("&") if parts.query else []
    in_query = [seg for seg in segments if seg.partition("=")[0] == QUERY_PASSWORD]
    if (password is None and not in_query) or env is None:
        return arg, None, None
    if in_query:  # the driver takes the query's over the one before "@"
        found = parse_qsl(in_query[-1], keep_blank_values=True)
        moved = found[0][1] if found else ""
    else:
        moved = unquote(password)
    netloc = parts.netloc
    if password is not None:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}@{host}"
    query = "&".join(seg for seg in segments if seg.partition("=")[0] != QUERY_PASSWORD)
    return head + sep + parts._replace(netloc=netloc, query=query).geturl(), moved, env


def reexec_without_password(module: str, argv: list[str]) -> None:
    """Start ``python -m module`` again, at once, with every URL of ``argv`` without its password, the password in
    the environment variable its driver reads (which only this account reads in ``/proc``); return (no exec) where
    no argument holds a password.

    ``without_password`` kept the password off the commands the class run starts, but the pipeline's and
    ``cluster submit``'s own arguments held it for the whole run (hours of grading, minutes of generate): any
    account on the machine read it in ``/proc/<pid>/cmdline`` (red team 23, host side). An entry point calls this
    before it imports anything heavy, so the instructor's typed password is on the command line only for the
    interpreter's start (0.16 to 0.22 s measured on a loaded 2-core machine, against the whole run before), and the
    same process (the same pid) goes on without it."""
    _reexec(["-m", module], argv)


def _reexec(head: list[str], argv: list[str]) -> None:
    """``python *head *argv`` again, in this process, each URL of ``argv`` without its password (moved into the
    environment); nothing where no argument holds one."""
    moved, new = {}, []
    for arg in argv:
        stripped, password, env = _strip_arg(arg)
        if password is not None:
            moved[env] = password
        new.append(stripped)
    if not moved:
        return
    env = dict(os.environ, **moved)
    env[MOVED_ENV] = ",".join(sorted(moved))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *head, *new], env)


def reexec_nbgrader_without_password(argv: list[str] | None = None) -> None:
    """``reexec_without_password`` for an ``nbgrader`` command the instructor typed (``nbgrader autograde 15-01 --db
    postgresql+psycopg2://grader:PW@db/gradebook``, or ``--CourseDirectory.db_url=...``), called from the course's
    nbgrader configuration as nbgrader loads it: the same script again with the URL without its password, the
    password in the variable its driver reads. Only where ``argv[0]`` is an nbgrader script (its console command):
    the pipeline's own nbgrader steps run in its runner (``-c``), with no password in their arguments.

    nbgrader's own ``--db`` kept the password in ``/proc/<pid>/cmdline``, which every account reads, for the whole
    command (red team 24, host side: a two-student ``autograde``, every reading of ``nobody`` for its whole run)."""
    argv = sys.argv if argv is None else argv
    script = argv[0] if argv else ""
    if not (os.path.basename(script).startswith("nbgrader") and os.path.isfile(script)):
        return
    _reexec([script], argv[1:])


def said_moved() -> str | None:
    """After a restart of ``reexec_nbgrader_without_password``: the variable(s) the password went into (the mark is
    taken out), else None."""
    return os.environ.pop(MOVED_ENV, None) or None


def take_moved(url: str | None) -> tuple[str | None, str | None]:
    """After ``reexec_without_password``: the password it moved for ``url``'s driver and the variable holding it
    (once: the mark is taken out); two Nones otherwise."""
    moved = os.environ.pop(MOVED_ENV, "").split(",")
    try:
        from sqlalchemy.engine import make_url
        env = PASSWORD_ENV.get(make_url(url).get_backend_name()) if url else None
    except Exception:
        env = None
    if env and env in moved and os.environ.get(env) is not None:
        return os.environ[env], env
    return None, None
