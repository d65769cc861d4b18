"""A student's name is text in the formgrader's pages.

nbgrader's formgrader renders a submission with nbconvert's HTML exporter and its ``formgrade`` template, which prints
``resources.last_name``, ``resources.first_name`` and ``resources.student`` with no escaping (jinja's autoescape is
off). Names come from the gradebook: the LMS's roster through ``nbgrader db student import``, a hub's
LTI login; an LMS display name is the student's to edit, and the page runs in the instructor's Jupyter server's
origin (its token; as root in the README): a name of ``<img src=x onerror=...>`` ran script there (red team 22, host
side). ``EscapeNames`` (one of ``HTMLExporter.preprocessors``, ``config.html_sanitizing``) escapes them before the template
sees them. (``formgrade_404.tpl`` prints them too, through the handlers' own jinja environment, but imports a macro
file nbgrader does not ship, ``formgrade_macros.tpl``: it never renders.)
"""
from __future__ import annotations

import html

from nbconvert.preprocessors import Preprocessor

from .grades_csv import visible_controls

NAMES = ("first_name", "last_name", "student", "email")


def escaped(resources):
    """``resources`` with its names escaped as HTML text (each once: a value escaped already is left alone), each
    bidirectional control shown as ``<U+202E>`` (one in a name turned the page's text after it around)."""
    if not isinstance(resources, dict):
        return resources
    for key in NAMES:
        value = resources.get(key)
        if isinstance(value, str) and not isinstance(value, Escaped):
            resources[key] = Escaped(html.escape(visible_controls(value)))
    return resources


class Escaped(str):
    """A name already escaped."""


class EscapeNames(Preprocessor):
    def preprocess(self, nb, resources):
        return nb, escaped(resources)
