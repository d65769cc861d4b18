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
