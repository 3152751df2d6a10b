"""What a browser posts from a page's form: every enabled control by name with its shown value (checked
boxes only, a select's selected option or its first, a textarea's text), so a test types into a form the way
a person does and submits the rest as the page shows it."""

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._select_first: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
        if not self.inside or "disabled" in attrs:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.data[name] = attrs.get("value") or "on"
            elif kind not in ("submit", "button"):
                self.data[name] = attrs.get("value") or ""
        elif tag == "select" and name:
            self._select, self._select_first = name, None
        elif tag == "option" and self._select:
            value = attrs.get("value") or ""
            if self._select_first is None:
                self._select_first = value
            if "selected" in attrs:
                self.data[self._select] = value
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data.removeprefix("\n") if not self.data[self._textarea] else data

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self._select:
            self.data.setdefault(self._select, self._select_first or "")
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def posted(response, form_id: str) -> dict[str, str]:
    """The data the page's form `form_id` posts as shown."""
    reader = _FormReader(form_id)
    reader.feed(response.content.decode())
    return reader.data
