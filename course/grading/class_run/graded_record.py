"""What a batch may skip, as the gradebook itself records it.

A table of our own, ``course_graded``, in the same database as nbgrader's gradebook (SQLite file or
PostgreSQL), holds one row per (assignment, student) that was autograded to the end: the fingerprint
it was graded with (submission, grading code, settings that change scores), the id of nbgrader's
submission it graded, and a hash of the autograded files it left. A row is removed before its
submission is graded again, so a grading that fails or is killed leaves none. Nothing outside the
gradebook (``gradebook/progress/`` markers included) can make a run skip a submission.
"""
from __future__ import annotations

import threading
import time

from sqlalchemy import Column, Float, MetaData, String, Table, create_engine, delete, insert, select
from sqlalchemy.pool import NullPool

_META = MetaData()
GRADED = Table(
    "course_graded", _META,
    Column("assignment", String(128), primary_key=True),
    Column("student", String(128), primary_key=True),
    Column("submission_id", String(64), nullable=False),  # nbgrader's SubmittedAssignment.id
    Column("fingerprint", String(64), nullable=False),
    Column("autograded", String(64), nullable=False),  # hash of autograded/<student>/<assignment>/
    Column("seconds", Float),
    Column("at", Float),
)

# Set in the batch's workers' environment: their autograde commands leave recording to the batch
# (plain ``nbgrader autograde`` records itself: class_run.plain_autograde).
PIPELINE_ENV = "COURSE_PIPELINE_RECORDS"

_ENGINES: dict[str, object] = {}
_LOCK = threading.Lock()


def _engine(db: str):
    """One engine per URL, without a pool: no connection outlives its use (a SQLite file removed
    between two runs is never written through an old one)."""
    with _LOCK:
        if db not in _ENGINES:
            args = {"connect_args": {"timeout": 60}} if db.startswith("sqlite") else {}  # nbgrader writes too
            _ENGINES[db] = create_engine(db, poolclass=NullPool, **args)
        return _ENGINES[db]


def ensure(db: str) -> None:
    """The table (called once nbgrader's own tables are there: nbgrader stamps its schema version
    only in a database that has no table yet)."""
    try:
        GRADED.create(_engine(db), checkfirst=True)
    except Exception:  # another node created it meanwhile
        if GRADED.name not in tables(db):
            raise


def tables(db: str) -> list[str]:
    from sqlalchemy import inspect
    return inspect(_engine(db)).get_table_names()


def rows(db: str, pairs) -> dict[tuple[str, str], dict]:
    """The rows of ``pairs`` (assignment, student) that the gradebook ``db`` holds."""
    wanted = set(pairs)
    ensure(db)
    with _engine(db).connect() as con:
        found = con.execute(select(GRADED)).mappings().all()
    return {(r["assignment"], r["student"]): dict(r) for r in found if (r["assignment"], r["student"]) in wanted}


def forget(db: str, assignment: str, student: str) -> None:
    if GRADED.name not in tables(db):
        return
    with _engine(db).begin() as con:
        con.execute(delete(GRADED).where(GRADED.c.assignment == assignment, GRADED.c.student == student))


def record(db: str, assignment: str, student: str, *, submission_id: str, fingerprint: str,
           autograded: str, seconds: float) -> None:
    ensure(db)
    with _engine(db).begin() as con:
        con.execute(delete(GRADED).where(GRADED.c.assignment == assignment, GRADED.c.student == student))
        con.execute(insert(GRADED).values(assignment=assignment, student=student, submission_id=submission_id,
                                          fingerprint=fingerprint, autograded=autograded,
                                          seconds=round(seconds, 2), at=time.time()))
