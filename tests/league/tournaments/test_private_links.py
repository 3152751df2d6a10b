"""Private links: a player without an account reads their table and reports or confirms its result through
their registration's link; organizers issue, reissue and revoke links; the attacks on them.

Through the pages with Django's test client: no cookie is ever needed (every request here is a fresh
client), the token is the credential.
"""

import html
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from league.matches.models import Match
from league.notifications import receivers
from league.notifications import services as notifications
from league.players.models import Player
from league.results.models import ResultReport
from league.tournaments import services
from league.tournaments.link_selectors import link_digest
from league.tournaments.models import AuditEntry, PrivateLink, Tournament
from league.tournaments.services.audit import audit
from league.web.tournaments.private_links import link_qr
from tests.factories import UserFactory
from tests.factories import tournaments as helpers


@pytest.fixture
def event(organizer):
    """A self-report Swiss of 8 (Ada ... Hal, none with an account) at tables of 4, every player with a
    private link, round 1 published; (tournament, tokens by name, tables by player name)."""
    tournament, players = helpers.make_tournament(organizer, 8, table_size=4, result_reporting="self_report")
    tokens = {
        player.name: services.private_link_issue(
            tournament=tournament, player_id=player.pk, by=organizer
        ).token
        for player in players
    }
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    return tournament, tokens, round_row


def seat_names(table) -> list[str]:
    return list(table.match.seats.order_by("seat").values_list("player__name", flat=True))


def table_of(round_row, name):
    return next(table for table in round_row.tables.all() if name in seat_names(table))


def page(token, **extra):
    return Client().get(f"/p/{token}/", **extra)


def post(token, data, **extra):
    return Client().post(f"/p/{token}/", data, **extra)


def report_data(table, places):
    data = {"action": "report", "expected_version": "0"}
    for seat, place in enumerate(places):
        data[f"place_{seat}"] = str(place)
    return data


def test_a_token_is_128_random_bits_stored_only_as_its_hash(event):
    tournament, tokens, _ = event
    token = tokens["Ada"]
    assert len(token) == 22  # 16 bytes in URL-safe base64
    link = PrivateLink.objects.get(registration__player__name="Ada")
    assert link.token_hash == link_digest(token)
    assert token not in str(list(PrivateLink.objects.values()))
    assert len(set(tokens.values())) == 8


def test_the_link_page_shows_the_holders_table_without_a_cookie(event):
    _, tokens, round_row = event
    table = table_of(round_row, "Ada")
    response = page(tokens["Ada"])
    assert response.status_code == 200
    text = response.content.decode()
    assert f"Round 1, table {table.number}" in text
    for name in seat_names(table):
        assert name in text
    assert "Report the result" in text
    assert response.cookies == {}
    assert response["Referrer-Policy"] == "no-referrer"
    assert response["Cache-Control"] == "no-store"


def test_a_table_reported_and_confirmed_through_links_is_stored(event):
    _, tokens, round_row = event
    table = table_of(round_row, "Ada")
    names = seat_names(table)
    reporter, *others = names
    response = post(tokens[reporter], report_data(table, [1, 2, 3, 4]))
    assert response.status_code == 302
    assert response["Location"] == f"/p/{tokens[reporter]}/?done=report"
    report = ResultReport.objects.get(match=table.match)
    assert report.reported_by is None
    assert sorted(Player.objects.filter(pk__in=report.awaiting).values_list("name", flat=True)) == sorted(
        others
    )
    for name in others:
        text = page(tokens[name]).content.decode()
        assert "Is this the result?" in text
        assert post(tokens[name], {"action": "confirm", "report": str(report.pk)}).status_code == 302
    table.match.refresh_from_db()
    assert table.match.status == Match.Status.FINISHED
    assert list(table.match.seats.order_by("seat").values_list("place", flat=True)) == [1, 2, 3, 4]
    assert "Result stored." in page(tokens[reporter]).content.decode()


def test_a_link_confirms_nothing_but_its_own_tables_report(event):
    _, tokens, round_row = event
    mine, other = (
        table_of(round_row, "Ada"),
        next(t for t in round_row.tables.all() if "Ada" not in seat_names(t)),
    )
    other_reporter = seat_names(other)[0]
    assert post(tokens[other_reporter], report_data(other, [1, 2, 3, 4])).status_code == 302
    foreign = ResultReport.objects.get(match=other.match)
    response = post(tokens["Ada"], {"action": "confirm", "report": str(foreign.pk)})
    assert response.status_code == 404
    assert ResultReport.objects.get(pk=foreign.pk).confirmations.count() == 0
    assert mine.match.reports.count() == 0


def test_a_link_takes_no_other_action(event):
    _, tokens, _ = event
    response = post(tokens["Ada"], {"action": "dispute", "note": "no"})
    assert response.status_code == 400
    assert "no such action" in response.content.decode()


def test_a_wrong_token_a_revoked_one_and_a_reissued_ones_old_token_answer_404(event, organizer):
    tournament, tokens, _ = event
    assert page("A" * 22).status_code == 404
    assert page("short").status_code == 404
    ada = Player.objects.get(name="Ada")
    services.private_link_revoke(tournament=tournament, player_id=ada.pk, by=organizer)
    revoked = page(tokens["Ada"])
    assert revoked.status_code == 404
    assert "does not work" in revoked.content.decode()
    bea = Player.objects.get(name="Bea")
    new = services.private_link_issue(tournament=tournament, player_id=bea.pk, by=organizer)
    assert new.reissued is True
    assert page(tokens["Bea"]).status_code == 404
    assert page(new.token).status_code == 200
    again = services.private_link_issue(tournament=tournament, player_id=ada.pk, by=organizer)
    assert page(again.token).status_code == 200
    assert page(tokens["Ada"]).status_code == 404


def test_a_revoked_link_cannot_report(event, organizer):
    tournament, tokens, round_row = event
    table = table_of(round_row, "Ada")
    services.private_link_revoke(
        tournament=tournament, player_id=Player.objects.get(name="Ada").pk, by=organizer
    )
    assert post(tokens["Ada"], report_data(table, [1, 2, 3, 4])).status_code == 404
    assert ResultReport.objects.count() == 0


def finish(tournament, organizer, days_ago):
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    entry = services.audit(tournament, organizer, AuditEntry.Action.FINISHED, after_round=1, early=True)
    AuditEntry.objects.filter(pk=entry.pk).update(at=timezone.now() - timedelta(days=days_ago))


def test_links_work_until_a_week_after_the_event_ends(event, organizer):
    tournament, tokens, _ = event
    finish(tournament, organizer, days_ago=6)
    assert page(tokens["Ada"]).status_code == 200
    AuditEntry.objects.filter(action=AuditEntry.Action.FINISHED).update(
        at=timezone.now() - timedelta(days=7, seconds=1)
    )
    assert page(tokens["Ada"]).status_code == 404


def test_a_link_answers_its_hourly_limit_then_429(event, settings):
    _, tokens, _ = event
    settings.PRIVATE_LINK_REQUESTS_PER_LINK_HOUR = 3
    assert [page(tokens["Ada"]).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert page(tokens["Bea"]).status_code == 200


def test_an_address_sending_bad_tokens_gets_429_for_every_link(event, settings):
    _, tokens, _ = event
    settings.PRIVATE_LINK_FAILURES_PER_CLIENT_HOUR = 3
    bad = [page("B" * 22, REMOTE_ADDR="203.0.113.9").status_code for _ in range(3)]
    assert bad == [404, 404, 404]
    locked = page(tokens["Ada"], REMOTE_ADDR="203.0.113.9")
    assert locked.status_code == 429
    assert locked["Retry-After"] == "3600"
    assert page(tokens["Ada"], REMOTE_ADDR="203.0.113.10").status_code == 200


def test_at_the_declared_venue_address_only_the_limit_per_link_counts(event, settings, organizer):
    tournament, tokens, _ = event
    settings.PRIVATE_LINK_FAILURES_PER_CLIENT_HOUR = 3
    services.venue_address_set(
        tournament=tournament, by=organizer, address="203.0.113.9", day=timezone.localdate(), client=None
    )
    assert [page("B" * 22, REMOTE_ADDR="203.0.113.9").status_code for _ in range(5)] == [404] * 5
    assert page(tokens["Ada"], REMOTE_ADDR="203.0.113.9").status_code == 200


def test_the_holder_leaves_an_email_and_is_mailed_once_when_their_table_is_out(organizer):
    tournament, players = helpers.make_tournament(organizer, 8, table_size=4, result_reporting="self_report")
    token = services.private_link_issue(tournament=tournament, player_id=players[0].pk, by=organizer).token
    assert post(token, {"action": "email", "email": "not an address"}).status_code == 400
    assert post(token, {"action": "email", "email": "ada@example.org"}).status_code == 302
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table_ids = list(round_row.tables.values_list("pk", flat=True))
    due = notifications.notify_table_ready_links(tournament_id=tournament.pk, table_ids=table_ids)
    assert len(due) == 1
    assert notifications.link_mail(link_mail_id=due[0]) is True
    assert notifications.link_mail(link_mail_id=due[0]) is False
    assert notifications.notify_table_ready_links(tournament_id=tournament.pk, table_ids=table_ids) == []
    table = table_of(round_row, "Ada")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.org"]
    assert (
        f"Your table is out in \u2068Spring Open\u2069: round 1, table {table.number}." in mail.outbox[0].body
    )
    assert token not in mail.outbox[0].body


def test_the_holder_attaches_the_player_to_an_account_made_later(event):
    _, tokens, _ = event
    user = UserFactory(username="ada")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    forged = client.post(f"/p/{tokens['Ada']}/attach/")
    assert forged.status_code == 403  # the attach form uses the session: no CSRF token, no attach
    assert Player.objects.get(name="Ada").user is None
    client = Client()
    assert client.post(f"/p/{tokens['Ada']}/attach/").status_code == 302  # not signed in: to the log-in
    client.force_login(user)
    response = client.post(f"/p/{tokens['Ada']}/attach/")
    assert response.status_code == 302
    assert Player.objects.get(name="Ada").user == user
    other = UserFactory(username="bea")
    client.force_login(other)
    taken = client.post(f"/p/{tokens['Ada']}/attach/")
    assert taken.status_code == 409
    assert "already belongs to an account" in taken.content.decode()


def test_only_organizers_issue_and_revoke(event, stranger):
    tournament, _, _ = event
    client = Client()
    client.force_login(stranger)
    response = client.post(
        f"/tournaments/{tournament.slug}/private-links/",
        {"action": "issue", "player": Player.objects.get(name="Ada").pk},
    )
    assert response.status_code == 403


def test_the_organizers_page_issues_a_slip_with_the_link_shown_once(event, organizer):
    tournament, tokens, _ = event
    client = Client()
    client.force_login(organizer)
    listing = client.get(f"/tournaments/{tournament.slug}/private-links/")
    assert listing.status_code == 200
    assert "Reissue the link of Ada" in listing.content.decode()
    slip = client.post(
        f"/tournaments/{tournament.slug}/private-links/",
        {"action": "issue", "player": Player.objects.get(name="Ada").pk},
    )
    assert slip.status_code == 200
    new_hash = PrivateLink.objects.get(registration__player__name="Ada").token_hash
    text = slip.content.decode()
    start = text.index("http://testserver/p/") + len("http://testserver/p/")
    token = text[start : start + 22]
    assert link_digest(token) == new_hash
    # The slip's QR code is the drawing of that very link (and of nothing else on the page).
    assert text.count('<svg width="205" height="205" class="segno">') == 1
    assert link_qr(f"http://testserver/p/{token}/") in text
    assert page(tokens["Ada"]).status_code == 404
    assert token not in client.get(f"/tournaments/{tournament.slug}/private-links/").content.decode()
    revoked = client.post(
        f"/tournaments/{tournament.slug}/private-links/",
        {"action": "revoke", "player": Player.objects.get(name="Ada").pk},
    )
    assert revoked.status_code == 302
    assert page(token).status_code == 404
    bad = client.post(f"/tournaments/{tournament.slug}/private-links/", {"action": "issue", "player": "x"})
    assert bad.status_code == 404


def test_no_token_on_anything_the_table_shares(event, organizer):
    tournament, tokens, round_row = event
    slug, table = tournament.slug, round_row.tables.order_by("number").first()
    client = Client()
    client.force_login(organizer)
    shared = [
        f"/tournaments/{slug}/",
        f"/tournaments/{slug}/rounds/1/",
        f"/tournaments/{slug}/rounds/1/print/",
        f"/tournaments/{slug}/rounds/1/slips/",
        f"/tournaments/{slug}/rounds/1/find/",
        f"/tournaments/{slug}/rounds/1/tables/{table.number}/",
        f"/tournaments/{slug}/projector/",
        f"/tournaments/{slug}/embed/",
        f"/tournaments/{slug}/check-in/",
        f"/tournaments/{slug}/log/",
        f"/tournaments/{slug}/private-links/",
        f"/tournaments/{slug}/standings.csv",
        f"/tournaments/{slug}/results.csv",
    ]
    for path in shared:
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        for token in tokens.values():
            assert token not in body, path
            assert link_digest(token) not in body, path


def test_venue_address_refuses_a_bad_address_or_a_missing_day(event, organizer):
    tournament, _, _ = event
    client = Client()
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/private-links/"
    bad = client.post(url, {"action": "venue", "venue_address": "venue wifi", "venue_day": "2026-12-06"})
    assert bad.status_code == 400
    assert "is an IP address" in bad.content.decode()
    no_day = client.post(url, {"action": "venue", "venue_address": "203.0.113.9", "venue_day": ""})
    assert no_day.status_code == 400
    bad_day = client.post(url, {"action": "venue", "venue_address": "203.0.113.9", "venue_day": "06.12."})
    assert bad_day.status_code == 400
    ok = client.post(url, {"action": "venue", "venue_address": "203.0.113.9", "venue_day": "2026-12-06"})
    assert ok.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.venue_address, str(tournament.venue_day)) == ("203.0.113.9", "2026-12-06")
    cleared = client.post(url, {"action": "venue", "venue_address": "", "venue_day": ""})
    assert cleared.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.venue_address, tournament.venue_day) == (None, None)


def test_a_table_where_someone_has_neither_account_nor_link_goes_to_the_organizers(event, organizer):
    tournament, tokens, round_row = event
    table = table_of(round_row, "Ada")
    names = seat_names(table)
    quiet = Player.objects.get(name=names[-1])
    services.private_link_revoke(tournament=tournament, player_id=quiet.pk, by=organizer)
    response = post(tokens[names[0]], report_data(table, [1, 2, 3, 4]))
    assert response.status_code == 409
    assert (
        f"{quiet.name} cannot confirm (no account, no private link): ask an organizer to enter this result"
        in response.content.decode()
    )


def test_a_tournament_whose_organizers_enter_results_takes_no_report_through_a_link(organizer):
    tournament, players = helpers.make_tournament(organizer, 4, table_size=4)  # organizers enter results
    token = services.private_link_issue(tournament=tournament, player_id=players[0].pk, by=organizer).token
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get()
    text = page(token).content.decode()
    assert "No result yet: the organizers enter it." in text
    assert 'id="report-form"' not in text
    refused = post(token, report_data(table, [1, 2, 3, 4]))
    assert refused.status_code == 403
    assert "the organizers enter the results" in refused.content.decode()


def test_publishing_a_round_queues_the_link_mails(organizer, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr(receivers.table_ready_links_task, "delay", lambda *args: queued.append(args))
    monkeypatch.setattr(receivers.notify_task, "delay", lambda *args: None)
    monkeypatch.setattr(receivers.webhooks_event_task, "delay", lambda *args: None)
    tournament, _ = helpers.make_tournament(organizer, 4, table_size=4)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        services.round_publish(round_row=round_row, by=organizer)
    assert queued == [(tournament.pk, [round_row.tables.get().pk])]


def no_table(token) -> str:
    body = page(token).content.decode()
    start = body.index('<p id="no-table">') + len('<p id="no-table">')
    return html.unescape(body[start : body.index("</p>", start)])


def test_the_holder_without_a_table_reads_why(organizer):
    tournament, players = helpers.make_tournament(organizer, 5, table_size=2, result_reporting="self_report")
    tokens = {
        player.name: services.private_link_issue(
            tournament=tournament, player_id=player.pk, by=organizer
        ).token
        for player in players
    }
    assert no_table(tokens["Ada"]) == (
        "No round is out yet. Look here again when the organizers publish the first round."
    )
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    round_row.refresh_from_db()
    (bye,) = round_row.byes
    name = Player.objects.get(pk=bye).name
    assert (
        no_table(tokens[name])
        == "You have a bye in round 1: it scores as a win. No table for you this round."
    )
    services.registration_leave(tournament=tournament, by=organizer, player_id=bye, status="dropped")
    assert no_table(tokens[name]) == "You are no longer playing in this event (dropped)."
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    audit(tournament, organizer, AuditEntry.Action.FINISHED)  # as tournament_finish writes it
    assert no_table(tokens[name]) == (
        "The event is over: there are no more tables. Your place is on the event's standings."
    )


def test_a_links_holder_takes_back_their_own_report_only(event):
    _, tokens, round_row = event
    table = table_of(round_row, "Ada")
    reporter, other, *_ = seat_names(table)
    post(tokens[reporter], report_data(table, [1, 2, 3, 4]))
    report = ResultReport.objects.get(match=table.match)
    assert "Take back my report" not in page(tokens[other]).content.decode()
    refused = post(tokens[other], {"action": "withdraw", "report": str(report.pk)})
    assert refused.status_code == 403
    assert (
        "only the player who made this report takes it back; dispute it instead" in refused.content.decode()
    )
    assert "Take back my report" in page(tokens[reporter]).content.decode()
    taken = post(tokens[reporter], {"action": "withdraw", "report": str(report.pk)})
    assert (taken.status_code, taken["Location"]) == (302, f"/p/{tokens[reporter]}/?done=withdraw")
    text = page(tokens[reporter], QUERY_STRING="done=withdraw").content.decode()
    assert "Your report is taken back: report the result again once it is right." in text
    assert "Report the result" in text
    report.refresh_from_db()
    assert report.status == "withdrawn"
