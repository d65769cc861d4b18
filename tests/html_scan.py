"""What in an HTML page could run in a browser (shared by the tests of graded notebooks and feedback)."""
import html.parser

EMBEDDING = {"iframe", "object", "embed", "frame", "frameset", "base", "form", "svg", "math", "applet", "portal"}
SAFE_DATA = ("data:image/png", "data:image/jpeg", "data:image/gif")


class Tags(html.parser.HTMLParser):
    """Every tag with its attributes, and every script with its text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.found, self.scripts, self._script = [], [], None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))
        if tag == "script":
            self._script = [dict(attrs), ""]
            self.scripts.append(self._script)

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


def script_key(attrs: dict, text: str) -> tuple:
    return attrs.get("src"), attrs.get("type"), text.strip()


def page_scripts(page: str) -> set:
    """The scripts of a page, to allow a template's own ones when checking another page."""
    return {script_key(a, t) for a, t in Tags(page).scripts}


def active(page: str, allowed_scripts=()) -> list[str]:
    """What in ``page`` could run: scripts other than ``allowed_scripts`` (same source, type and
    text), embedded documents and forms, event-handler attributes, meta refreshes, and script URLs
    or data URLs other than PNG/JPEG/GIF images."""
    tags = Tags(page)
    bad = [f"<script {a}>{t[:60]}" for a, t in tags.scripts if script_key(a, t) not in allowed_scripts]
    for tag, attrs in tags.found:
        if tag in EMBEDDING or (tag == "meta" and attrs.get("http-equiv")):
            bad.append(f"<{tag}>")
        for name, value in attrs.items():
            v = "".join((value or "").split()).lower()
            if name.startswith("on"):
                bad.append(f"<{tag} {name}=...>")
            if v.startswith(("javascript:", "vbscript:")) or (v.startswith("data:") and not (
                    tag == "img" and name == "src" and v.startswith(SAFE_DATA))):
                bad.append(f"<{tag} {name}={v[:40]}>")
    return bad
