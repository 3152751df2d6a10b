"""The Content-Security-Policy (settings.CONTENT_SECURITY_POLICY, docs/league.md): every page carries it with
exactly its directives, the embed with frame-ancestors * instead of 'none' and the API docs with data: images;
and nothing the site sends needs what it refuses: no inline script, <style> element, style= or on*= attribute
in a template, in HTML that Python writes, or on a drawn page of any type."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from league.bots.models import BotLeague
from league.tournaments.demo import CUP_NAME, SWISS_NAME
from league.tournaments.models import Tournament
from tests.e2e.site_pages import build_site
from tests.league.csp import DOCS_POLICY, EMBED_POLICY, HANDLER, POLICY, inline_code, policy

BASE = Path(settings.BASE_DIR)


def test_the_reader_finds_each_kind_of_inline_code():
    page = """<p style="color:red">x</p><button type="button" onclick="go()">Go</button>
<script>alert(1)</script><script src="/static/a.js"></script><script>
</script><style>p { color: red }</style>
<details open><input onfocus="this.select()" value='style="a"'></details>
<script type="application/json" id="data">{"a": 1}</script>"""
    assert inline_code(page) == [
        "line 1: a style= attribute on <p>",
        "line 1: an onclick= attribute on <button>",
        "line 2: an inline <script>: 'alert(1)'",
        "line 3: a <style> element",
        "line 4: an onfocus= attribute on <input>",
    ]


def _markup(template: str) -> str:
    """The HTML of a template without its comments and tags (whose quotes would cut attributes short); each
    variable stands as one word. Line numbers stay."""
    template = re.sub(r"\{#.*?#\}|\{%.*?%\}", "", template)
    return re.sub(r"\{\{.*?\}\}", "x", template)


def test_the_template_reader_sees_through_template_tags():
    template = """{% load static %}{# a <style> element is refused #}\
<input value='<a href="{% url 'home' %}">'>
<p{% if late %} style="color: {{ colour }}"{% endif %}>{{ name }}</p>"""
    assert inline_code(_markup(template)) == ["line 2: a style= attribute on <p>"]


def test_no_template_holds_inline_script_style_or_handler():
    templates = sorted([*(BASE / "templates").rglob("*.html"), *BASE.glob("league/*/templates/**/*.html")])
    assert len(templates) > 80  # the glob found the templates
    found = {str(path.relative_to(BASE)): inline_code(_markup(path.read_text())) for path in templates}
    assert {name: problems for name, problems in found.items() if problems} == {}


def _refused_in_python(source: str) -> list[int]:
    """The lines of `source` whose strings hold HTML that the policy refuses, or that give a widget a style=
    or on*= attribute (`attrs={"style": ...}`, `widget.attrs["onclick"] = ...`)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if inline_code(text) or "<style" in text or "<script>" in text:
                lines.append(node.lineno)
            continue
        if isinstance(node, ast.keyword) and node.arg == "attrs" and isinstance(node.value, ast.Dict):
            keys = [key.value for key in node.value.keys if isinstance(key, ast.Constant)]
        elif isinstance(node, ast.Subscript) and getattr(node.value, "attr", None) == "attrs":
            keys = [node.slice.value] if isinstance(node.slice, ast.Constant) else []
        else:
            continue
        if any(key == "style" or HANDLER.fullmatch(str(key)) for key in keys):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_python_reader_finds_html_strings_and_widget_attributes():
    source = """
page = f'<p style="margin:0">{name}</p>'
fine = '<p class="x">'
widget = forms.TextInput(attrs={"style": "width: 12rem", "autocomplete": "off"})
other = forms.TextInput(attrs={"class": "user-name"})
widget.attrs["onchange"] = "go()"
widget.attrs["id"] = "name"
LOGGING = {"formatters": {"server": {"style": "{"}}}
"""
    assert _refused_in_python(source) == [2, 4, 6]


def test_no_python_module_writes_inline_script_style_or_handler():
    """HTML that Python writes (template tags, drawings, widgets) holds none either."""
    found = {}
    for path in [*sorted((BASE / "league").rglob("*.py")), BASE / "games" / "viewer" / "drawing.py"]:
        lines = _refused_in_python(path.read_text())
        if lines:
            found[str(path.relative_to(BASE))] = lines
    assert found == {}


def _extra_pages() -> list[tuple[str, str | None, int]]:
    """Pages that site_pages leaves out: (path, who looks, status)."""
    swiss, cup = (Tournament.objects.get(name=name) for name in (SWISS_NAME, CUP_NAME))
    league = BotLeague.objects.get(name="Nacho season")
    return [
        (f"/tournaments/{swiss.slug}/", "organizer", 200),  # the room links with the embed code
        (f"/tournaments/{swiss.slug}/projector/", None, 200),
        (f"/tournaments/{swiss.slug}/rounds/1/print/", None, 200),
        (f"/tournaments/{swiss.slug}/rounds/1/slips/", None, 200),
        (f"/tournaments/{swiss.slug}/organizers/", "organizer", 200),
        (f"/tournaments/{cup.slug}/rounds/1/", "organizer", 200),
        (f"/tournaments/{swiss.slug}/settings/", "organizer", 200),
        (f"/bots/{league.pk}/live/", None, 200),
        ("/bots/new/", "organizer", 200),
        ("/bots/challenges/new/", "author", 200),
        ("/notifications/", "author", 200),
        ("/webhooks/", "organizer", 200),
        ("/accounts/password/", "author", 200),
        ("/accounts/password/reset/", None, 200),
        ("/health/", None, 503),  # no worker has proved its sandbox here
        ("/api/docs/", None, 200),
        ("/api/docs/?script=", None, 200),
        ("/api/players/", None, 200),
        ("/admin/", "root", 200),
        ("/admin/players/player/", "root", 200),
        ("/admin/players/player/add/", "root", 200),
        ("/admin/tournaments/tournament/", "root", 200),
        ("/no-such-page/", None, 404),
        ("/matches/new/", "author", 302),
        (f"/tournaments/{swiss.slug}/organizers/", "author", 403),
    ]


@pytest.mark.django_db
def test_every_page_carries_the_policy_and_holds_no_inline_code():
    visits = [(visit.path, visit.user, 200) for visit in build_site()] + _extra_pages()
    get_user_model().objects.create_superuser("root", "root@example.com", "pass-word-123")
    clients: dict[str | None, Client] = {None: Client()}
    report = []
    for path, user, status in visits:
        if user not in clients:
            clients[user] = Client()
            clients[user].force_login(get_user_model().objects.get(username=user))
        response = clients[user].get(path)
        expected = DOCS_POLICY if path.startswith("/api/docs/") else POLICY
        if (response.status_code, policy(response)) != (status, expected):
            header = response.get("Content-Security-Policy")
            report.append(f"{path} as {user}: {response.status_code}, {header}")
        if response["Content-Type"].startswith("text/html"):
            report += [f"{path} as {user}: {problem}" for problem in inline_code(response.content.decode())]
    assert report == [], "\n".join(report)


@pytest.mark.django_db
def test_the_embed_alone_may_be_framed_by_any_site(client):
    build_site()
    swiss = Tournament.objects.get(name=SWISS_NAME)
    for show in ("all", "standings", "bracket"):
        response = client.get(f"/tournaments/{swiss.slug}/embed/?show={show}")
        assert (response.status_code, policy(response)) == (200, EMBED_POLICY)
        assert "X-Frame-Options" not in response.headers
        assert inline_code(response.content.decode()) == []
    response = client.get(f"/tournaments/{swiss.slug}/?embed=1")
    assert (response.status_code, policy(response)) == (302, POLICY)


def test_a_form_without_its_csrf_token_gets_the_sites_403_under_the_policy(db):
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a", "password": "b"})
    page = response.content.decode()
    assert (response.status_code, policy(response)) == (403, POLICY)
    assert "<h1>This form could not be sent</h1>" in page
    assert "allow them for it, then go back, reload the page and send the form again." in page
    assert inline_code(page) == []
