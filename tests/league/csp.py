"""The Content-Security-Policy that every page carries (settings.CONTENT_SECURITY_POLICY), and a reader of
HTML that finds what the policy refuses: inline script (data blocks of JSON aside: no browser runs them),
<style> elements, style= and on*= attributes."""

from __future__ import annotations

import re
from html.parser import HTMLParser

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
EMBED_POLICY = POLICY | {"frame-ancestors": "*"}  # the one page that other sites may frame
DOCS_POLICY = POLICY | {"img-src": "'self' data:"}  # the API docs: Swagger UI's icons are data: images


def policy(response) -> dict[str, str]:
    """The response's Content-Security-Policy as {directive: sources} (django-csp writes them in no set
    order)."""
    header = response.get("Content-Security-Policy", "")
    directives = [part.strip().split(" ", 1) for part in header.split(";") if part.strip()]
    return {name: sources for name, sources in directives}


HANDLER = re.compile(r"on[a-z]+")
DATA_BLOCKS = {"application/json"}  # <script> types that browsers never run (json_script's): no CSP applies


class _InlineFinder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        names = [name for name, _ in attrs]
        if tag == "style":
            self.found.append(f"line {line}: a <style> element")
        if "style" in names:
            self.found.append(f"line {line}: a style= attribute on <{tag}>")
        handlers = [name for name in names if HANDLER.fullmatch(name)]
        self.found += [f"line {line}: an {name}= attribute on <{tag}>" for name in handlers]
        self.in_script = tag == "script" and "src" not in names and dict(attrs).get("type") not in DATA_BLOCKS

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script and data.strip():
            self.found.append(f"line {self.getpos()[0]}: an inline <script>: {data.strip()[:60]!r}")


def inline_code(html: str) -> list[str]:
    """Where `html` holds something the policy refuses, one line each (empty if nothing)."""
    finder = _InlineFinder()
    finder.feed(html)
    finder.close()
    return finder.found
