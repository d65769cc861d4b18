"""The class report: one self-contained HTML page (plots embedded as PNG data URIs, no JavaScript).

    python -m course.grading.report [--root DIR] [--db URL]      (make report)

writes ``<root>/gradebook/report/index.html``. First, at a glance: per assignment how the class did and
the hidden checks it failed most (what to reteach), the assignments without submissions in one line,
and the checks that could not run on this machine (GPU checks without a GPU: shown apart, never in a
failure rate). Then per assignment the score distribution and each task's mean score (from nbgrader's
gradebook), each hidden check's failure rate across the class, worst first (from the judge's records,
``course.grading.records.judge_records``); every incident; the slowest submissions. Every string that a
student could have chosen (ids, messages) is escaped.
"""
from __future__ import annotations

import argparse
import html
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

from ...judge.results import NO_GPU_FAILED, NO_GPU_SKIPPED
from ..records import judge_records
from . import plots as report_plots

WORST_PLOTTED = 20  # checks in each failure-rate plot (the table lists them all)
SLOWEST = 15
INCIDENTS_SHOWN = 300
RETEACH = 3  # most failed checks named at a glance, per assignment


def default_db_url(root: Path) -> str:
    return "sqlite:///" + str(Path(root) / "gradebook" / "gradebook.db")


def read_gradebook(db_url: str) -> tuple[dict, str | None]:
    """{assignment: {"max": points, "scores": [(student, points)], "cells": {cell: (max, [points])}}},
    and a note when there is no gradebook to read."""
    if db_url.startswith("sqlite:///") and not os.path.exists(db_url[len("sqlite:///"):]):
        return {}, "No gradebook at " + db_url[len("sqlite:///"):]
    from nbgrader.api import Gradebook

    out = {}
    with Gradebook(db_url) as gb:
        for a in gb.assignments:
            entry = {"max": float(a.max_score or 0), "scores": [], "cells": {}}
            for sub in gb.assignment_submissions(a.name):
                entry["scores"].append((sub.student_id, float(sub.score or 0)))
                for nb in sub.notebooks:
                    for g in nb.grades:
                        cell = entry["cells"].setdefault(_cell_label(gb, g, a.name), (float(g.max_score or 0), []))
                        cell[1].append(float(g.score or 0))
            out[a.name] = entry
    return out, None


def _cell_label(gb, grade, assignment: str) -> str:
    """A grade cell's name, with the hidden tasks its test cell checks."""
    try:
        from ... import notebook as nbtools
        source = gb.find_source_cell(grade.name, grade.notebook.name, assignment).source
        tasks = [t for _, t in nbtools.hidden_calls(source)]
    except Exception:
        tasks = []
    return f"{grade.name} ({', '.join(tasks)})" if tasks else grade.name


def current(records: list[dict], grades: dict) -> list[dict]:
    """Records of submissions the gradebook holds (a student removed since has no say in the rates);
    all of them for an assignment the gradebook does not know."""
    held = {a: {s for s, _ in g["scores"]} for a, g in grades.items()}
    return [r for r in records if r.get("assignment") not in held or r.get("student") in held[r["assignment"]]]


def no_gpu(c: dict) -> bool:
    """A GPU check that could not run on this machine (failed or skipped without CUDA: not the student's)."""
    msg = str(c.get("message") or "")
    return (c.get("status") == "failed" and msg.startswith(NO_GPU_FAILED)) or \
        (c.get("status") == "skipped" and msg.startswith(NO_GPU_SKIPPED))


def not_run_here(records: list[dict]) -> dict[str, list[dict]]:
    """Per assignment, the checks that could not run here (``no_gpu``): how many submissions had each
    failed for it (graded without COURSE_ALLOW_CPU_GRADING) or skipped."""
    counts = defaultdict(lambda: {"failed": 0, "skipped": 0})
    for rec in records:
        for c in rec["checks"]:
            if no_gpu(c):
                counts[(rec.get("assignment", ""), c.get("task", ""), c.get("title", ""))][c["status"]] += 1
    out = defaultdict(list)
    for (assignment, task, title), n in sorted(counts.items()):
        out[assignment].append({"task": task, "title": title, **n})
    return dict(out)


def check_rates(records: list[dict]) -> dict[str, list[dict]]:
    """Per assignment, each hidden check's failures among the submissions that ran it, worst first
    (a check that could not run here, ``no_gpu``, is not counted)."""
    counts = defaultdict(lambda: {"failed": 0, "ran": 0})
    for rec in records:
        for c in rec["checks"]:
            if c.get("status") not in ("passed", "failed") or no_gpu(c):
                continue
            key = (rec.get("assignment", ""), c.get("nodeid") or c.get("name", ""), c.get("task", ""),
                   c.get("title", ""))
            counts[key]["ran"] += 1
            counts[key]["failed"] += c["status"] == "failed"
    out = defaultdict(list)
    for (assignment, _, task, title), n in counts.items():
        out[assignment].append({"task": task, "title": title, **n, "rate": n["failed"] / n["ran"]})
    for rows in out.values():
        rows.sort(key=lambda r: (-r["rate"], -r["failed"], r["task"], r["title"]))
    return dict(out)


def incidents(records: list[dict], folder: Path) -> list[dict]:
    """The pipeline's incidents, then each record's judge error and events (where the pipeline did not
    already list the judge's incidents of that submission: a run of plain nbgrader writes only records)."""
    out = judge_records.read_incidents(folder)
    listed = {(i["assignment"], i["student"]) for i in out if i.get("kind") == "judge"}
    for rec in records:
        who = {"assignment": rec.get("assignment", ""), "student": rec.get("student", "")}
        if (who["assignment"], who["student"]) in listed:
            continue
        if rec.get("error"):
            out.append({**who, "kind": "judge error", "message": rec["error"]})
        out += [{**who, "kind": "judge event", "message": e} for e in rec.get("events") or []]
    return out


def slowest(records: list[dict], n: int = SLOWEST) -> list[dict]:
    return sorted(records, key=lambda r: -float(r.get("judge_seconds") or 0))[:n]


def percent(x: float) -> str:
    return f"{100 * x:.0f} %"


def esc(value) -> str:
    return html.escape(str(value), quote=True)


def table(headers: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def img(uri: str, alt: str) -> str:
    return f'<img class="plot" src="{esc(uri)}" alt="{esc(alt)}">'


def scores_section(name: str, grades: dict | None) -> str:
    if not grades or not grades["scores"]:
        return "<p>No graded submissions in the gradebook.</p>"
    pts = [s for _, s in grades["scores"]]
    top = grades["max"]
    parts = [f"<p>{len(pts)} submissions; mean {statistics.mean(pts):.2f}, median "
             f"{statistics.median(pts):.2f} of {top:g} points.</p>",
             img(report_plots.histogram(pts, top, f"{name}: score distribution"), f"{name} score distribution")]
    cells = [(label, mx, statistics.mean(v)) for label, (mx, v) in grades["cells"].items() if v]
    if cells:
        pct = [100 * m / mx if mx else 0.0 for _, mx, m in cells]
        parts.append(img(report_plots.bars([c[0] for c in cells], pct, "mean score (% of the cell's points)",
                                           f"{name}: mean score per task"), f"{name} mean score per task"))
        parts.append(table(["task (grade cell)", "mean points", "of", "mean"],
                           [[label, f"{m:.2f}", f"{mx:g}", f"{p:.0f} %"] for (label, mx, m), p in zip(cells, pct)]))
    return "\n".join(parts)


def not_run_section(rows: list[dict] | None) -> str:
    if not rows:
        return ""
    failed = any(r["failed"] for r in rows)
    why = (" Graded without a GPU, they failed and cost each submission their points: grade on a GPU node "
           "(or set COURSE_ALLOW_CPU_GRADING=1 to skip them)." if failed else " They were skipped.")
    return ("<h3>Checks that could not run here (no GPU)</h3><p>These checks need CUDA and this machine had "
            f"none: they say nothing of what the class learnt and are in no failure rate above.{why}</p>"
            + table(["task", "check", "failed for it", "skipped"],
                    [[r["task"], r["title"], r["failed"], r["skipped"]] for r in rows]))


def glance(grades: dict, rates: dict, gpu: dict, found: list[dict]) -> str:
    """The first screen: how the class did on each assignment and what it failed most."""
    shown = [a for a in sorted(set(grades) | set(rates)) if (grades.get(a) or {}).get("scores") or rates.get(a)]
    empty = sorted(a for a in grades if a not in shown)
    per = defaultdict(int)
    for i in found:
        per[i.get("assignment", "")] += 1
    rows = []
    for a in shown:
        g = grades.get(a) or {"scores": [], "max": 0.0}
        pts = [p for _, p in g["scores"]]
        top = g["max"] or 0.0

        def pct(x: float) -> str:
            return f"{x:.2f} ({100 * x / top:.0f} %)" if top else f"{x:.2f}"

        worst = [r for r in rates.get(a, []) if r["failed"]][:RETEACH]
        rows.append([a, len(pts), f"{top:g}", pct(statistics.mean(pts)) if pts else "-",
                     pct(statistics.median(pts)) if pts else "-", pct(min(pts)) if pts else "-",
                     "\n".join(f"{r['task']}: {r['title']} ({percent(r['rate'])} failed)" for r in worst)
                     or "no hidden check failed", per.get(a, 0)])
    parts = ["<h2>At a glance</h2>"]
    if rows:
        parts.append(table(["assignment", "graded", "points", "mean", "median", "lowest",
                            "reteach first (hidden checks failed most)", "incidents"], rows))
    else:
        parts.append("<p>No graded submissions yet.</p>")
    if empty:
        parts.append(f"<p>No submissions yet: {esc(', '.join(empty))}.</p>")
    if gpu:
        n = sum(len(v) for v in gpu.values())
        parts.append(f'<p class="note">{n} GPU check{"s" * (n != 1)} in {esc(", ".join(sorted(gpu)))} could not run '
                     "here (no GPU): listed apart under each assignment, in no failure rate.</p>")
    return "\n".join(parts)


def checks_section(name: str, rates: list[dict] | None, have_records: bool) -> str:
    if not rates:
        return "<p>No judge records for this assignment.</p>" if have_records else ""
    worst = rates[:WORST_PLOTTED]
    labels = [f"{r['task']}: {r['title']}" for r in worst]
    parts = ["<h3>Hidden checks, most failed first (what the class did not learn)</h3>",
             img(report_plots.bars(labels, [100 * r["rate"] for r in worst], "failed (% of submissions that ran it)",
                                   f"{name}: the {len(worst)} most failed checks"), f"{name} check failure rates"),
             f"<details{' open' if len(rates) <= WORST_PLOTTED else ''}><summary>all {len(rates)} checks</summary>",
             table(["task", "check", "failed", "of", "failure rate"],
                   [[r["task"], r["title"], r["failed"], r["ran"], percent(r["rate"])] for r in rates]), "</details>"]
    return "\n".join(parts)


def incidents_section(found: list[dict]) -> str:
    if not found:
        return "<p>None recorded.</p>"
    shown = table(["assignment", "student", "kind", "message"],
                  [[i["assignment"], i["student"], i["kind"], i["message"]] for i in found[:INCIDENTS_SHOWN]])
    more = len(found) - INCIDENTS_SHOWN
    return shown + (f"<p>{more} more in the records (not shown).</p>" if more > 0 else "")


def page(root: Path, db_url: str, grades: dict, note: str | None, records: list[dict], folder: Path) -> str:
    rates = check_rates(records)
    parts = [f"<h1>Class report</h1><p>Generated {esc(time.strftime('%Y-%m-%d %H:%M'))} from the gradebook "
             f"{esc(_shown_url(db_url))} and the judge's records in {esc(folder)}.</p>"]
    if note:
        parts.append(f'<p class="note">{esc(note)}: no scores to show.</p>')
    if not records:
        parts.append(f'<p class="note">No judge records found in {esc(folder)}: check failure rates, judge '
                     "incidents and timings appear after a grading run that writes them.</p>")
    gpu = not_run_here(records)
    found = incidents(records, folder)
    parts.append(glance(grades, rates, gpu, found))
    for name in sorted(set(grades) | set(rates)):
        if not (grades.get(name) or {}).get("scores") and not rates.get(name):
            continue  # no submissions: one line at a glance
        parts.append(f"<h2>Assignment {esc(name)}</h2>")
        parts.append(scores_section(name, grades.get(name)))
        parts.append(checks_section(name, rates.get(name), bool(records)))
        parts.append(not_run_section(gpu.get(name)))
    parts.append("<h2>Incidents</h2>" + incidents_section(found))
    slow = slowest(records)
    parts.append("<h2>Slowest submissions</h2>" + (table(["assignment", "student", "judge seconds", "checks"],
                 [[r.get("assignment", ""), r.get("student", ""), f"{float(r.get('judge_seconds') or 0):.1f}",
                   len(r["checks"])] for r in slow]) if slow else "<p>No judge records.</p>"))
    return _document("\n".join(parts))


def _shown_url(db_url: str) -> str:
    try:
        from sqlalchemy.engine import make_url
        return make_url(db_url).render_as_string(hide_password=True)
    except Exception:
        return db_url.split("@")[-1]


def _document(body: str) -> str:
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
             "table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;"
             "padding:2px 8px;text-align:left;vertical-align:top}td{white-space:pre-wrap;word-break:break-word}"
             "img.plot{display:block;max-width:100%;margin:1em 0}.note{background:#fff3cd;padding:.5em}")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Class report</title>'
            f"<style>{style}</style></head><body>\n{body}\n</body></html>\n")


def write(root: Path, db_url: str | None = None) -> Path:
    """Write ``<root>/gradebook/report/index.html`` (atomically) and return its path."""
    root = Path(root).resolve()
    db_url = db_url or default_db_url(root)
    grades, note = read_gradebook(db_url)
    folder = judge_records.records_dir(root)
    text = page(root, db_url, grades, note, current(judge_records.read_all(folder), grades), folder)
    out = root / "gradebook" / "report" / "index.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".index-{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m course.grading.report", description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=Path.cwd(), help="course root (default: this folder)")
    ap.add_argument("--db", dest="db_url", help="gradebook URL (default: sqlite:///<root>/gradebook/gradebook.db)")
    args = ap.parse_args(argv)
    print(write(args.root, args.db_url))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
