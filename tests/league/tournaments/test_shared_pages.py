"""An event's public pages rendered once per state and shared by visitors who are not signed in
(`league.web.tournaments.shared`): every write that changes a public page shows on the next look; a poll that
finds nothing new is a 304 with nothing rendered; nothing of one viewer's reaches another."""

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.players.services import player_update
from league.tournaments import services
from league.tournaments.models import Tournament
from league.web.tournaments import shared
from tests.factories import UserFactory
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_public_version import CHANGES, first_table, published


def event_url(tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).get_absolute_url()


def look(client, url, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, **headers)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_public_write_shows_on_the_next_look(name, organizer):
    """Each write of `PUBLIC_WRITES` (its scenario in test_public_version): a visitor's next look at the
    event's page is no 304 and no stored copy, but the page of the new state, under a new ETag."""
    tournament, call = CHANGES[name](organizer)
    visitor, url = Client(), event_url(tournament)
    first = look(visitor, url)
    call()
    if first.status_code == 404:  # a draft event: nobody but its organizers sees it; its version moves
        before = shared.etag_of(tournament)
        assert shared.etag_of(Tournament.objects.get(pk=tournament.pk)) != before
        return
    assert first.status_code == 200 and first["ETag"]
    again = look(visitor, url, first["ETag"])
    after = look(Client(), url)
    if again.status_code == 404:  # deleted or hidden since
        return
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert after.content == again.content


def test_a_result_shows_on_the_round_page_and_fragment_at_the_next_look(organizer):
    tournament, round_row = published(organizer)
    visitor = Client()
    round_url = round_row.get_absolute_url()
    live_url = f"{event_url(tournament)}?fragment=live"
    page, fragment = look(visitor, round_url), look(visitor, live_url)
    assert b"1st" not in page.content
    assert look(visitor, round_url).content == page.content  # the stored copy, the same bytes
    services.table_result(table=first_table(round_row), by=organizer, expected_version=0, places=[1, 2])
    page_after, fragment_after = (
        look(visitor, round_url, page["ETag"]),
        look(visitor, live_url, fragment["ETag"]),
    )
    assert (page_after.status_code, fragment_after.status_code) == (200, 200)
    assert page_after.content != page.content and fragment_after.content != fragment.content


def test_a_rename_shows_on_every_shared_page_at_the_next_look(organizer):
    tournament, round_row = published(organizer)
    visitor = Client()
    round_url = round_row.get_absolute_url()
    page = look(visitor, round_url)
    assert b"Ada" in page.content
    ada = tournament.registrations.get(player__name="Ada").player
    player_update(player=ada, name="Adaeze")
    again = look(visitor, round_url, page["ETag"])
    assert again.status_code == 200 and b"Adaeze" in again.content


def test_the_names_version_moves_on_a_rename_once_committed(django_capture_on_commit_callbacks, organizer):
    tournament, _ = published(organizer)
    before = shared.etag_of(Tournament.objects.get(pk=tournament.pk))
    ada = tournament.registrations.get(player__name="Ada").player
    with django_capture_on_commit_callbacks(execute=True):
        player_update(player=ada, name="Adaeze")
    assert services.common.names_version() > 0
    assert shared.etag_of(Tournament.objects.get(pk=tournament.pk)) != before


def test_a_poll_that_finds_nothing_new_is_a_304_without_rendering(organizer):
    tournament, round_row = published(organizer)
    visitor = Client()
    for url in (
        round_row.get_absolute_url(),
        f"{event_url(tournament)}?fragment=live",
        event_url(tournament),
    ):
        first = look(visitor, url)
        assert first.status_code == 200
        assert first["Cache-Control"] == "no-cache" and "Cookie" in first["Vary"]
        with CaptureQueriesContext(connection) as queries:
            poll = look(visitor, url, first["ETag"])
        assert (poll.status_code, poll.content, poll["ETag"]) == (304, b"", first["ETag"])
        assert len(queries) == 1  # the tournament row: nothing rendered
        assert look(visitor, url, '"t0.0.n0.r0"').status_code == 200  # another version: the page


def test_a_stored_page_is_served_without_rendering(organizer):
    tournament, round_row = published(organizer)
    url = round_row.get_absolute_url()
    first = look(Client(), url)
    with CaptureQueriesContext(connection) as queries:
        second = look(Client(), url)
    assert second.content == first.content and len(queries) == 1


def test_an_organizers_controls_and_csrf_token_never_reach_a_visitor(client, organizer):
    """The organizer's page (controls, forms with their CSRF token) is rendered for them and never stored;
    a visitor looking after them gets the public page, without a control or a token."""
    tournament, round_row = published(organizer)
    client.force_login(organizer)
    for url in (round_row.get_absolute_url(), event_url(tournament)):
        mine = client.get(url)
        assert b"csrfmiddlewaretoken" in mine.content and "ETag" not in mine
        visitor = look(Client(), url)
        assert visitor.status_code == 200
        assert b"csrfmiddlewaretoken" not in visitor.content
        assert b'id="controls"' not in visitor.content and b"Log out" not in visitor.content
        assert client.get(url).content.count(b"csrfmiddlewaretoken") == mine.content.count(
            b"csrfmiddlewaretoken"
        )


def test_a_signed_in_players_own_table_never_reaches_a_visitor_nor_the_other_way(organizer):
    """A player's page shows their own table first (`my-table`); the visitor's copy never has it, and the
    player never gets the visitor's stored copy."""
    tournament, round_row = published(organizer)
    ada = UserFactory(username="ada")
    type(tournament.registrations.get(player__name="Ada").player).objects.filter(name="Ada").update(user=ada)
    visitor, player = Client(), Client()
    player.force_login(ada)
    url = event_url(tournament)
    public = look(visitor, url)
    own = player.get(url)
    assert own.content != public.content
    assert "ETag" not in own
    assert look(visitor, url).content == public.content
    assert b"csrfmiddlewaretoken" not in public.content


def test_a_page_that_holds_a_form_for_visitors_is_never_stored(organizer):
    """A page whose anonymous rendering holds a CSRF token (a form) is rendered for each visitor: a token is
    never shared."""
    tournament = helpers.open_signup(organizer)
    url = event_url(tournament)
    first, second = look(Client(), url), look(Client(), url)
    assert first.status_code == second.status_code == 200
    assert "ETag" not in first or b"csrfmiddlewaretoken" not in first.content
    tokens = [
        re.findall(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content) for page in (first, second)
    ]
    assert not tokens[0] or tokens[0] != tokens[1]


def test_unknown_parameters_are_rendered_not_stored(organizer):
    tournament, round_row = published(organizer)
    url = round_row.get_absolute_url()
    cache.clear()
    assert look(Client(), f"{url}?utm=spam").status_code == 200
    assert look(Client(), f"{url}?page=1234567").status_code in (200, 404)
    assert not any(key for key in cache._cache if "shared-page" in key)  # locmem in the tests


def test_a_running_timer_carries_the_instant_it_ends(organizer):
    tournament, round_row = published(organizer)
    services.round_timer_start(round_row=round_row, by=organizer, minutes=50)
    page = look(Client(), round_row.get_absolute_url()).content.decode()
    round_row.refresh_from_db()
    ends_ms = int(round_row.timer_ends_at.timestamp() * 1000)
    assert f'data-state="running" data-ends-at="{ends_ms}"' in page
    assert "data-seconds-left" not in page


def test_a_players_path_shows_a_result_and_a_rename_on_the_next_look_for_visitors_and_signed_in(organizer):
    """The path pages' inputs are read once per state (`pages.path_inputs`): the next look after a result or
    a rename reads the new state, whoever looks."""
    tournament, round_row = published(organizer)
    table = first_table(round_row)
    ada = tournament.registrations.get(player__name="Ada").player
    url = f"{event_url(tournament)}players/{ada.slug}/"
    signed_in = Client()
    signed_in.force_login(UserFactory(username="watcher"))
    before = [look(Client(), url).content, signed_in.get(url).content]
    services.table_result(table=table, by=organizer, expected_version=0, places=[1, 2])
    after = [look(Client(), url).content, signed_in.get(url).content]
    assert after[0] != before[0] and after[1] != before[1]
    player_update(player=ada, name="Adaeze")
    renamed = Tournament.objects.get(pk=tournament.pk).get_absolute_url() + "players/adaeze/"
    assert b"Adaeze" in look(Client(), renamed).content and b"Adaeze" in signed_in.get(renamed).content


# --- The early answer (`shared.SharedPages`): before the session, authentication and the view -------------


def through_the_view(url, etag=None):
    """A look by a visitor whose browser holds a session cookie of no session: it goes through the session,
    authentication and the view, which serve the same shared copy."""
    visitor = Client()
    visitor.cookies["sessionid"] = "no-such-session"
    return look(visitor, url, etag)


def test_a_visitor_without_a_session_gets_the_stored_copy_before_the_session_and_the_view(organizer):
    """The stored page and the 304 are answered from the tournament's row and the cache, before the session
    and authentication middleware (the request never gets a `user`), with the very headers and bytes that
    the view's path gives."""
    tournament, round_row = published(organizer)
    for url in (
        round_row.get_absolute_url(),
        event_url(tournament),
        f"{event_url(tournament)}?fragment=live",
    ):
        stored = through_the_view(url)
        with CaptureQueriesContext(connection) as queries:
            early = look(Client(), url)
        assert not hasattr(early.wsgi_request, "user") and hasattr(stored.wsgi_request, "user")
        assert len(queries) == 1  # the tournament's row
        assert early.content == stored.content
        assert dict(early.headers) == dict(stored.headers)
        assert early["X-Frame-Options"] == "DENY" and early["Content-Length"] == str(len(early.content))
        poll = look(Client(), url, early["ETag"])
        assert poll.status_code == 304 and not hasattr(poll.wsgi_request, "user")
        assert dict(poll.headers) == dict(through_the_view(url, early["ETag"]).headers)


def test_a_session_or_a_message_cookie_goes_the_whole_way(organizer):
    """A browser with a session (signed in or not) or a message waiting is never answered early: its page
    may hold the user's own table, controls or the message."""
    tournament, round_row = published(organizer)
    url = round_row.get_absolute_url()
    look(Client(), url)  # stored
    with_message = Client()
    with_message.cookies["messages"] = "anything"
    assert hasattr(look(with_message, url).wsgi_request, "user")
    assert hasattr(through_the_view(url).wsgi_request, "user")


def test_a_draft_event_is_never_answered_early(organizer):
    tournament = helpers.open_signup(organizer)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.DRAFT)
    answer = look(Client(), event_url(tournament))
    assert answer.status_code == 404 and hasattr(answer.wsgi_request, "user")


def test_a_cache_that_lost_the_names_version_never_serves_an_older_rendering(organizer):
    """Without the names version the early path answers nothing; the view starts the version again above
    any earlier value, so the stored copy (of an older names version) is rendered anew, under a new ETag."""
    tournament, round_row = published(organizer)
    url = round_row.get_absolute_url()
    first = look(Client(), url)
    cache.delete(services.common.NAMES_VERSION_KEY)
    again = look(Client(), url)
    assert hasattr(again.wsgi_request, "user")  # through the view
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert look(Client(), url, first["ETag"]).status_code == 200
    assert not hasattr(look(Client(), url).wsgi_request, "user")  # stored again: early


# --- One rendering at a time: a look that finds another process rendering the same page waits for its copy --


def test_a_look_waits_for_the_copy_another_process_is_rendering(organizer, monkeypatch):
    """Another process (here: a timer thread) holds the page's rendering mark and stores its copy 0.2 s
    later: the look serves that copy instead of rendering the page a second time."""
    import threading

    monkeypatch.setattr(shared, "RENDER_WAIT_SECONDS", 60.0)  # generous: the other process stores first
    tournament, round_row = published(organizer)
    url = round_row.get_absolute_url()
    tournament = Tournament.objects.get(pk=tournament.pk)
    request = Client().get(url).wsgi_request  # a request for the same path and query: the key
    cache.clear()
    key = shared.cache_key(tournament.pk, tournament.public_version, request)
    assert cache.add(f"{key}:rendering", shared.RENDERING)
    names = services.common.names_version()
    other = threading.Timer(0.2, cache.set, (key, (names, "text/html; charset=utf-8", b"<p>theirs</p>")))
    other.start()
    answer = Client(HTTP_COOKIE="sessionid=none").get(url)  # through the view (the early path finds none)
    other.join()
    assert (answer.status_code, answer.content) == (200, b"<p>theirs</p>")


def test_a_look_renders_its_own_when_the_other_rendering_will_not_be_stored(organizer, monkeypatch):
    """A mark that says ALONE (the page is not one to store) or one that nobody fulfils within the wait:
    the look renders the page itself."""
    monkeypatch.setattr(shared, "RENDER_WAIT_SECONDS", 0.2)  # injected: nobody stores here
    tournament, round_row = published(organizer)
    url = round_row.get_absolute_url()
    expected = Client().get(url).content
    tournament = Tournament.objects.get(pk=tournament.pk)
    request = Client().get(url).wsgi_request
    for mark in (shared.ALONE, shared.RENDERING):
        cache.clear()
        key = shared.cache_key(tournament.pk, tournament.public_version, request)
        cache.set(f"{key}:rendering", mark)
        answer = Client().get(url)
        assert (answer.status_code, answer.content) == (200, expected)


def test_a_page_not_to_store_marks_itself_so_that_nobody_waits(organizer, monkeypatch):
    """A rendering that may not be stored (here every one: `_storable` says no, as for a page with a form or
    the standings of an earlier state) marks the page ALONE, so that the next look renders at once instead
    of waiting for a copy that will not come."""
    monkeypatch.setattr(shared, "_storable", lambda request, response: False)
    tournament, round_row = published(organizer)
    answer = Client().get(round_row.get_absolute_url())
    tournament = Tournament.objects.get(pk=tournament.pk)
    key = shared.cache_key(tournament.pk, tournament.public_version, answer.wsgi_request)
    assert cache.get(f"{key}:rendering") == shared.ALONE and cache.get(key) is None
    assert "ETag" not in answer


# --- The live standings fragment: a signed-in user without a role sees what a visitor sees -----------------


@pytest.mark.parametrize("short_names", [False, True])
def test_the_live_fragment_of_a_member_is_the_visitors_copy_byte_for_byte(
    organizer, monkeypatch, short_names
):
    """A seated player with an account and a signed-in stranger get the stored copy of the live fragment
    (with its ETag, and a 304 on a poll); it is byte for byte what the page renders for each of them with
    sharing off; an organizer, a scorekeeper, a judge and site staff get their own rendering, never stored
    (with short names on, they see full names the copy does not have)."""
    tournament, round_row = published(organizer)
    Tournament.objects.filter(pk=tournament.pk).update(short_names=short_names)
    services.table_result(table=first_table(round_row), by=organizer, expected_version=0, places=[1, 2])
    ada = UserFactory(username="ada-account")
    player = tournament.registrations.get(player__name="Ada").player
    player_update(player=player, name="Ada Lovelace")
    type(player).objects.filter(pk=player.pk).update(user=ada)
    url = f"{event_url(tournament)}?fragment=live"
    public = look(Client(), url)
    assert public.status_code == 200 and public["ETag"]

    def signed_in(user):
        client = Client()
        client.force_login(user)
        return client

    for user in (ada, UserFactory(username="stranger")):
        shared_answer = signed_in(user).get(url)
        assert shared_answer["ETag"] == public["ETag"] and shared_answer.content == public.content
        assert signed_in(user).get(url, HTTP_IF_NONE_MATCH=public["ETag"]).status_code == 304
        with monkeypatch.context() as patched:
            patched.setattr(shared, "_for_members", lambda request, slug: False)
            alone = signed_in(user).get(url)
        assert "ETag" not in alone
        assert alone.content == public.content
    scorekeeper, judge = UserFactory(username="keeper"), UserFactory(username="judge")
    tournament.scorekeepers.add(scorekeeper)
    tournament.judges.add(judge)
    staff = UserFactory(username="staff", is_staff=True)
    for user in (organizer, scorekeeper, judge, staff):
        answer = signed_in(user).get(url)
        assert answer.status_code == 200 and "ETag" not in answer
        assert b"Ada Lovelace" in answer.content
        assert (b"Ada Lovelace" in public.content) is not short_names


def test_a_member_never_gets_a_shared_copy_of_the_event_page(organizer):
    """The event page (the user's own entry, bye requests, check-in, forms) is rendered for them."""
    tournament, _ = published(organizer)
    member = Client()
    member.force_login(UserFactory(username="member"))
    url = event_url(tournament)
    look(Client(), url)  # a visitor's copy is stored
    answer = member.get(url)
    assert answer.status_code == 200 and "ETag" not in answer and b"Log out" in answer.content


def tokens_masked(content: bytes) -> bytes:
    masked = b'name="csrfmiddlewaretoken" value="-"'
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', masked, content)


@pytest.mark.parametrize("self_report", [True, False])
def test_a_members_round_page_is_the_visitors_copy_with_their_own_header_and_table_link(
    organizer, monkeypatch, self_report
):
    """A seated player with an account and a signed-in stranger get the visitor's stored copy of the round
    page with their own header (name, inbox, log-out form) and, under self-report, the seated player's link
    to their table: nothing rendered for them (the round page's rendering is never called), and byte for
    byte (CSRF tokens aside) the page rendered for them with sharing off. No ETag: their header is theirs."""
    from league.web.tournaments import rounds

    tournament, round_row = published(organizer)
    if self_report:
        Tournament.objects.filter(pk=tournament.pk).update(result_reporting=Tournament.Reporting.SELF_REPORT)
    ada = UserFactory(username="ada-account")
    player = tournament.registrations.get(player__name="Ada").player
    type(player).objects.filter(pk=player.pk).update(user=ada)
    url = round_row.get_absolute_url()
    public = look(Client(), url)
    assert b"Your table:" not in public.content and b"Log out" not in public.content

    def signed_in(user):
        client = Client()
        client.force_login(user)
        return client

    for user in (ada, UserFactory(username="stranger")):
        with monkeypatch.context() as patched:
            patched.setattr(rounds, "round_page_response", lambda *args, **kwargs: 1 / 0)
            spliced = signed_in(user).get(url)
        with monkeypatch.context() as patched:
            patched.setattr(shared, "_for_members", lambda request, slug: False)
            alone = signed_in(user).get(url)
        assert spliced.status_code == alone.status_code == 200
        assert "ETag" not in spliced and "ETag" not in alone
        assert ("csrftoken" in spliced.cookies) is ("csrftoken" in alone.cookies) is True  # the log-out form
        assert tokens_masked(spliced.content) == tokens_masked(alone.content)
        header = spliced.content.split(b"<!--user-nav-->", 1)[1].split(b"<!--/user-nav-->", 1)[0]
        assert user.username.encode() in header and b'id="log-out"' in header
        assert b"csrfmiddlewaretoken" in header
        assert (b"Your table: report, confirm or dispute" in spliced.content) is (user == ada and self_report)
        assert look(Client(), url).content == public.content  # the visitor's copy is untouched


def test_an_organizer_and_a_scorekeeper_get_their_own_round_page(organizer):
    tournament, round_row = published(organizer)
    keeper = UserFactory(username="keeper")
    tournament.scorekeepers.add(keeper)
    url = round_row.get_absolute_url()
    look(Client(), url)
    for user in (organizer, keeper):
        client = Client()
        client.force_login(user)
        answer = client.get(url)
        assert b"Enter the result" in answer.content or b"Enter results" in answer.content
