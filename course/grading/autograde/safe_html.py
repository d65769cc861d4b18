"""The one HTML policy for anything a student wrote that an instructor's browser will show.

nh3 (the ammonia sanitizer) keeps an allow-list of inert tags; no attribute can run code or
restyle the page (event handlers, ``style`` beyond table alignment, ids, classes other than the
code highlighter's); links go to http(s), mailto or a fragment; images load from http(s) only
(``strict``) or also from embedded PNG/JPEG/GIF data (rendering of instructor cells).

``markdown`` and ``raw`` make a student's cell source inert for any markdown renderer;
``clean_html`` and ``markdown2html`` apply the same policy again when nbconvert writes a page.

``highlight_code`` (nbconvert's filter of that name, for code cells) and fenced code blocks in markdown are
highlighted by ``highlight``: with the course's Python lexer only (never one a cell's metadata or a fence
names), and as plain text once lexing a cell costs more CPU than its size allows, since pygments' lexers are
quadratic on some inputs (a code cell of 16,000 dots: 4.9 s of the grader's CPU; 2 MiB, the text cap, a day).
"""
from __future__ import annotations

import html
import re
import time

import jinja2
import nh3

TAGS = {"a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd", "del",
        "details", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd",
        "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "summary",
        "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "u", "ul", "var"}
_CELL = {"colspan", "rowspan", "style"}
ATTRIBUTES = {"*": {"class"}, "a": {"href", "title"}, "img": {"src", "alt", "title", "width", "height"},
              "ol": {"start"}, "td": _CELL, "th": _CELL, **{f"h{i}": {"id"} for i in range(1, 7)}}

# the code highlighter's classes (pygments token names, "highlight hl-<language>") and heading anchors
_PYGMENTS = {"bp", "c", "c1", "ch", "cm", "cp", "cpf", "cs", "dl", "err", "esc", "fm", "g", "gd", "ge", "ges", "gh",
             "gi", "go", "gp", "gr", "gs", "gt", "gu", "il", "k", "kc", "kd", "kn", "kp", "kr", "kt", "l", "ld", "m",
             "mb", "mf", "mh", "mi", "mo", "n", "na", "nb", "nc", "nd", "ne", "nf", "ni", "nl", "nn", "no", "nt",
             "nv", "nx", "o", "ow", "p", "pm", "py", "s", "s1", "s2", "sa", "sb", "sc", "sd", "se", "sh", "si", "sr",
             "ss", "sx", "vc", "vg", "vi", "vm", "w", "x", "highlight", "anchor-link"}
_HL_LANG = re.compile(r"hl-[A-Za-z0-9_+-]{1,40}")
_ALIGN = re.compile(r"\s*text-align:\s*(left|right|center)\s*;?\s*")
_LINK = re.compile(r"(?i)(https?://|mailto:|#)")
_WEB_IMAGE = re.compile(r"(?i)https?://")
_DATA_IMAGE = re.compile(r"(?i)data:image/(png|jpeg|gif);base64,[A-Za-z0-9+/=\s]*")
_NUMBER = re.compile(r"\d{1,5}")
_SCHEMES = {"http", "https", "mailto", "data"}

# MathJax typesets $...$ and \(...\) anywhere in a page's text: macros that make links, attributes or
# styles, or load extensions, lose their backslash (shown as U+29F5) in students' text.
_TEX_ACTIVE = re.compile(r"\\(?=(href|url|class|cssId|style|require|unicode|mmlToken|html|data|bbox)(?![A-Za-z]))")


def _attribute_filter(strict: bool):
    def keep(tag: str, attr: str, value: str) -> str | None:
        if attr == "rel":  # added by nh3 itself to every link
            return value
        if attr == "href":
            return value if _LINK.match(value.strip()) else None
        if attr == "src":
            v = value.strip()
            return value if _WEB_IMAGE.match(v) or (not strict and _DATA_IMAGE.fullmatch(v)) else None
        if attr == "class":
            words = [w for w in value.split() if w in _PYGMENTS or _HL_LANG.fullmatch(w)]
            return " ".join(words) or None
        if attr == "style":
            return value if _ALIGN.fullmatch(value) else None
        if attr in ("width", "height", "start", "colspan", "rowspan"):
            return value if _NUMBER.fullmatch(value.strip()) else None
        if attr == "id":
            return None if strict else value
        return value
    return keep


_STRICT, _LENIENT = _attribute_filter(True), _attribute_filter(False)


def clean(fragment: str, strict: bool = True) -> str:
    """``fragment`` with everything outside the policy removed (script and style with their content)."""
    return nh3.clean(fragment, tags=TAGS, attributes=ATTRIBUTES, url_schemes=_SCHEMES,
                     attribute_filter=_STRICT if strict else _LENIENT)


def clean_html(element) -> str:
    """nbconvert's ``clean_html`` filter (raw cells, highlighted code, HTML output) under this policy."""
    text = element.decode() if isinstance(element, bytes) else str(element)
    return clean(text, strict=False)


@jinja2.pass_context
def markdown2html(context, source) -> str:
    """nbconvert's ``markdown2html`` filter, sanitized under this policy: nbgrader's feedback and
    formgrader templates render markdown cells without ``clean_html``. A cell's attachments are
    embedded as nbconvert does; a missing one is dropped instead of stopping the page."""
    cell = context.get("cell") or {}
    return clean(_render(str(source), attachments=cell.get("attachments") or {}, budget=_page_budget(context)),
                 strict=False)


def neutral_tex(text: str) -> str:
    return _TEX_ACTIVE.sub("\u29f5", text)


_FILES_URL = re.compile(r"""(src|href)=(['"]?)/?files/""")
_FILES_LINK = re.compile(r"(!?)\[([^\[\]\n]*)\]\(/?files/([^()\n]*)\)")


def strip_files_prefix(text) -> str:
    """nbconvert's filter of that name (links into ``files/`` made relative), which the feedback and formgrader
    templates apply to every rendered markdown cell, without its quadratic pattern: nbconvert's scans from each
    ``[`` to the end of the line (``.*?``), so a student's line of 16,000 ``[`` cost a page 3.3 s; here a caption
    ends at the next bracket and a location at the next parenthesis."""
    return _FILES_LINK.sub(r"\1[\2](\3)", _FILES_URL.sub(r"\1=\2", str(text)))


# ------------------------------------------------------------------ code highlighting

LANGUAGES = {"ipython3", "ipython", "python", "python3", "py", "py3", "text"}  # the only lexers a page uses:
# the course's notebooks run Python, its markdown fences name only ``python``, the grader's notes ``text``
HIGHLIGHT_SECONDS = 0.02  # CPU for lexing one cell or fenced block, plus ...
HIGHLIGHT_PER_CHAR = 50e-6  # ... this much a character (Python lexes at about 16 us a character here)
PAGE_SECONDS = 10.0  # CPU for lexing all of one page (or one notebook's markdown at autograde); then plain text


class Budget:
    """CPU seconds of lexing left to one page (kept in the page's ``resources``) or one notebook."""

    def __init__(self, seconds: float | None = None):
        self.left = PAGE_SECONDS if seconds is None else seconds


_PAGE_BUDGET = "course_highlight_budget"  # the key of a page's Budget in nbconvert's resources


def _ipython_lexer():
    """IPython's lexer, as nbconvert finds it (Python 3's where IPython is not installed)."""
    try:
        from IPython.lib.lexers import IPython3Lexer
    except ImportError:
        from pygments.lexers import Python3Lexer as IPython3Lexer
    return IPython3Lexer()


def highlight(source: str, language: str = "ipython3", budget: Budget | None = None) -> str:
    """``source`` as pygments' HTML, lexed with ``language`` when it is one of ``LANGUAGES`` (else the course's
    ``ipython3``), as nbconvert's ``highlight_code`` writes it; shown as plain text, with the same markup, once
    lexing costs more CPU than ``HIGHLIGHT_SECONDS`` plus ``HIGHLIGHT_PER_CHAR`` a character, or than is left of
    ``budget`` (the page's or the notebook's: what one spends, the next has not; checked after each
    token: pygments lexes some inputs in quadratic time, outside every sandbox and limit)."""
    import pygments
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.token import Text

    language = language if language in LANGUAGES else "ipython3"
    lexer = _ipython_lexer() if language.startswith("ipython") else get_lexer_by_name(language)
    source = source or " "
    formatter = HtmlFormatter(cssclass=f" highlight hl-{language}")
    began = time.thread_time()
    limit = began + min(HIGHLIGHT_SECONDS + HIGHLIGHT_PER_CHAR * len(source), budget.left if budget else PAGE_SECONDS)
    tokens = []
    try:
        for token in lexer.get_tokens(source):
            tokens.append(token)
            if time.thread_time() > limit:
                return pygments.format([(Text, source)], formatter)
    finally:
        if budget:
            budget.left -= time.thread_time() - began
    return pygments.format(tokens, formatter)


def _page_budget(context) -> Budget | None:
    """The Budget of the page a template renders (nbconvert passes one ``resources`` dict per page)."""
    resources = context.get("resources") if context is not None else None
    if not isinstance(resources, dict):
        return None
    if not isinstance(resources.get(_PAGE_BUDGET), Budget):
        resources[_PAGE_BUDGET] = Budget()
    return resources[_PAGE_BUDGET]


@jinja2.pass_context
def highlight_code(context, source, language=None, metadata=None) -> str:
    """nbconvert's ``highlight_code`` filter for the feedback and formgrader pages: the course's lexer whatever
    the notebook's ``language_info`` or the cell's ``magics_language`` metadata name (both the student's to
    write), within ``highlight``'s CPU budget and the page's."""
    return highlight(str(source), language or "ipython3", _page_budget(context))


# ------------------------------------------------------------------ student cells

def _parse(source: str) -> list:
    """The tokens of nbconvert's own markdown parser (math included)."""
    from nbconvert.filters.markdown_mistune import MarkdownWithMath
    return MarkdownWithMath(renderer=None)(source)


def _render(source: str, attachments: dict | None = None, budget: Budget | None = None) -> str:
    """nbconvert's markdown rendering, except that images are never read from files, and an
    ``attachment:`` reference not in ``attachments`` stays a plain URL (which the policy drops)."""
    from mistune.renderers.html import HTMLRenderer
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    class Renderer(IPythonRenderer):
        def block_code(self, code, info=None):
            """A fence's language is the writer's: only the course's lexers, within ``highlight``'s budget."""
            lang = (str(info or "").split() or [""])[0]
            if lang.startswith("mermaid"):
                return super().block_code(code, info)
            if lang.lower() in LANGUAGES:
                return highlight(code, lang.lower(), budget)
            return HTMLRenderer.block_code(self, code, info)

        def image(self, text, url, title=None):
            if url.startswith("attachment:") and url[len("attachment:"):] in self.attachments:
                return super().image(text, url, title)
            return HTMLRenderer.image(self, text, url, title)

    return MarkdownWithMath(renderer=Renderer(escape=False, attachments=attachments or {})).render(source)


def _inert(tokens) -> bool:
    """Tokens whose rendering holds no raw HTML, only http(s)/mailto/fragment links and http(s)
    images: such markdown is kept as written."""
    for tok in tokens:
        kind = tok.get("type")
        if kind in ("inline_html", "block_html"):
            return False
        attrs = tok.get("attrs") or {}
        if kind == "block_code" and str(attrs.get("info") or "").strip().startswith("mermaid"):
            return False
        url = str(attrs.get("url", "")).strip()
        if kind == "link" and not _LINK.match(url):
            return False
        if kind == "image" and not _WEB_IMAGE.match(url):
            return False
        if not _inert(tok.get("children") or []):
            return False
    return True


def _one_block(fragment: str) -> str:
    """An HTML fragment as one line inside a div: every CommonMark renderer passes it through as a
    single HTML block (it ends only at a blank line), so no markdown is parsed inside it again."""
    body = fragment.replace("\r", "&#13;").replace("\n", "&#10;")
    return f"<div>{body}</div>"


MAX_TAGS = 1000  # tags in a student's HTML (a markdown or raw cell) that the sanitizer parses
_TAG = re.compile(r"<[A-Za-z/!?]")


def _too_many_tags(source: str) -> bool:
    """More than ``MAX_TAGS`` tags: the HTML parser under nh3 scans its stack of open elements for each
    block tag (a ``<div>`` looks for an open ``<p>``), so nested tags cost the grader quadratic time outside
    every sandbox and limit (``"<div>" * 40_000``, 200 kB, took 25 s of CPU)."""
    return sum(1 for _ in _TAG.finditer(source)) > MAX_TAGS


MATH_STEPS = 20_000_000  # math openers x characters that the markdown parser may scan in one notebook's cells
_MATH_OPENER = re.compile(r"\\begin\{|\\\\[\[(]")


def math_cost(source: str) -> int:
    """What parsing ``source`` may cost in math scans: its math openers times its length. nbconvert's markdown
    parser finds math with lazy patterns over the whole cell, so each ``\\\\[``, ``\\\\(`` or ``\\begin{x}``
    without its closer scans to the end of the text: 4,000 ``\\\\[`` (12 kB) took 0.93 s of CPU and 7,000
    ``\\begin{a}`` (64 kB) 6.3 s, quadratic, for each parse (autograde's and every page's). Dollars are not
    counted: ``$`` and ``$$`` open and close alike, so a scan stops at the next one (linear for every shape tried)."""
    if len(source) < 9:
        return 0
    return sum(1 for _ in _MATH_OPENER.finditer(source)) * len(source)


def _as_text(source: str) -> str:
    """The cell's text, escaped, as one HTML block; backslashes and dollars as character references too, so
    that no math pattern of the markdown parser starts inside it when a page renders it again."""
    text = html.escape(source).replace("\\", "&#92;").replace("$", "&#36;")
    return _one_block(f"<pre>{text}</pre>")


def markdown(source: str, math_left: int = MATH_STEPS, budget: Budget | None = None) -> str:
    """A student's markdown cell, inert: kept as written when its rendering is inert (see ``_inert``),
    otherwise replaced by its rendering under the strict policy (or by its text, past ``MAX_TAGS`` tags or
    ``math_left``, what is left of the notebook's ``MATH_STEPS``: see ``math_cost``); its code fences are
    highlighted within ``budget``, the notebook's."""
    source = neutral_tex(source)
    if math_cost(source) > math_left:
        return _as_text(source)
    if _inert(_parse(source)):
        return source
    if _too_many_tags(source):
        return _as_text(source)
    out = _one_block(clean(_render(source, budget=budget), strict=True))
    tokens = [t for t in _parse(out) if t.get("type") != "blank_line"]
    if len(tokens) != 1 or tokens[0].get("type") != "block_html":  # never seen; then show the text itself
        out = _as_text(source)
    return out


def raw(source: str) -> str:
    """A student's raw cell, which nbconvert's HTML writes into the page as it is: inert HTML (its text,
    escaped, past ``MAX_TAGS`` tags)."""
    if _too_many_tags(source):
        return neutral_tex(f"<pre>{html.escape(source)}</pre>")
    return neutral_tex(clean(source, strict=True))
