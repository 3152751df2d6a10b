"""Notifications: stored and mailed by Celery tasks after the action commits (never for a rolled-back one),
mail opt-outs respected, a failing mail server retried without breaking the action."""

from __future__ import annotations

import smtplib
from unittest import mock

import pytest
from django.core import mail
from django.db import transaction

from league.core import events
from league.notifications import services
from league.notifications.models import Notification
from league.results.services import report_open
from league.tournaments import services as tournament_services
from league.tournaments.models import Round

READY = "Your table is ready in \u2068Club Cup\u2069: round 1, table 1."


def publish(cup, orga):
    round_row = tournament_services.round_generate(tournament=cup, by=orga)
    return tournament_services.round_publish(round_row=round_row, by=orga)


def inbox(username: str) -> list[tuple[str, str, str]]:
    return list(
        Notification.objects.filter(user__username=username)
        .values_list("kind", "text", "link")
        .order_by("id")
    )


def mails() -> list[tuple[list[str], str]]:
    return sorted((message.to, message.subject) for message in mail.outbox)


def test_a_published_round_is_stored_and_mailed_only_after_its_commit(
    eager, cup, orga, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        publish(cup, orga)
    assert (Notification.objects.count(), len(mail.outbox)) == (0, 0)  # committed yet? not until now

    for callback in callbacks:
        callback()

    for username in ("ada", "bea", "cal", "dov"):
        assert inbox(username) == [("table_ready", READY, "/tournaments/club-cup/rounds/1/")]
    assert inbox("orga") == []
    assert mails() == [
        ([f"{name}@example.com"], f"Pecking Order: {READY}") for name in ("ada", "bea", "cal", "dov")
    ]
    body = mail.outbox[0].body
    assert body.startswith(f"{READY}\n\nhttp://localhost:8000/tournaments/club-cup/rounds/1/\n\n")
    assert "http://localhost:8000/notifications/" in body
    assert Notification.objects.filter(emailed_at__isnull=True).count() == 0


def test_a_rolled_back_action_stores_and_mails_nothing(eager, cup, orga, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        publish(cup, orga)
        raise RuntimeError("the organizer's request failed after publishing")
    assert callbacks == []
    assert (Round.objects.filter(tournament=cup).count(), Notification.objects.count(), len(mail.outbox)) == (
        0,
        0,
        0,
    )


def test_a_task_run_twice_stores_and_mails_once(eager, cup, orga, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        publish(cup, orga)
    callbacks[0]()  # the event heard again (a retried task, a redelivered message)
    assert (Notification.objects.count(), len(mail.outbox)) == (4, 4)


def test_mail_opt_outs_are_respected_and_the_inbox_keeps_everything(
    eager, cup, orga, people, django_capture_on_commit_callbacks
):
    ada, bea, cal, dov = people
    services.mail_preference_set(user=ada, email_enabled=False, muted_kinds=[])
    services.mail_preference_set(user=bea, email_enabled=True, muted_kinds=["table_ready"])
    services.mail_preference_set(
        user=cal, email_enabled=True, muted_kinds=["tournament_finished", "confirm_result"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        publish(cup, orga)
    assert mails() == [
        (["cal@example.com"], f"Pecking Order: {READY}"),
        (["dov@example.com"], f"Pecking Order: {READY}"),
    ]
    assert Notification.objects.count() == 4
    assert Notification.objects.filter(emailed_at__isnull=False).count() == 2


def test_a_user_without_an_address_gets_the_notification_but_no_mail(
    eager, cup, orga, people, django_capture_on_commit_callbacks
):
    people[0].email = ""
    people[0].save()
    with django_capture_on_commit_callbacks(execute=True):
        publish(cup, orga)
    assert (inbox("ada"), len(mail.outbox)) == (
        [("table_ready", READY, "/tournaments/club-cup/rounds/1/")],
        3,
    )


def test_a_failing_mail_server_is_retried_and_the_action_still_succeeds(
    eager, cup, orga, django_capture_on_commit_callbacks
):
    calls = []
    real = services.send_mail

    def flaky(**kwargs):
        calls.append(kwargs["recipient_list"][0])
        if len(calls) <= 2:
            raise smtplib.SMTPServerDisconnected("the mail server went away")
        return real(**kwargs)

    with (
        mock.patch("league.notifications.services.send_mail", side_effect=flaky),
        django_capture_on_commit_callbacks(execute=True),
    ):
        round_row = publish(cup, orga)
    assert Round.objects.get(pk=round_row.pk).status == Round.Status.PUBLISHED
    assert calls[:3] == ["ada@example.com", "ada@example.com", "ada@example.com"]  # twice refused, then sent
    assert len(calls) == 6
    assert mails() == [
        ([f"{name}@example.com"], f"Pecking Order: {READY}") for name in ("ada", "bea", "cal", "dov")
    ]


def test_a_mail_server_that_never_answers_gives_up_and_the_action_still_succeeds(
    eager, cup, orga, django_capture_on_commit_callbacks
):
    down = mock.patch(
        "league.notifications.services.send_mail", side_effect=smtplib.SMTPConnectError(421, "down")
    )
    with down as send, django_capture_on_commit_callbacks(execute=True):
        round_row = publish(cup, orga)
    assert Round.objects.get(pk=round_row.pk).status == Round.Status.PUBLISHED
    assert send.call_count == 4 * 7  # the first try and 6 retries, for each of the 4 players
    assert (Notification.objects.count(), Notification.objects.filter(emailed_at__isnull=True).count()) == (
        4,
        4,
    )


def test_a_report_asks_the_users_it_names_to_confirm(
    eager, cup, orga, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = publish(cup, orga).tables.get()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.emit(
            events.report_awaiting_confirmation,
            tournament_id=cup.pk,
            table_id=table.pk,
            report_id=7,
            user_ids=[people[1].pk, people[2].pk],
        )
    text = "A result waits for your confirmation in \u2068Club Cup\u2069: round 1, table 1."
    assert [row for row in inbox("bea") if row[0] == "confirm_result"] == [
        ("confirm_result", text, "/tournaments/club-cup/rounds/1/")
    ]
    assert Notification.objects.filter(kind="confirm_result").count() == 2
    assert mails() == [
        (["bea@example.com"], f"Pecking Order: {text}"),
        (["cal@example.com"], f"Pecking Order: {text}"),
    ]


def test_the_confirm_notification_names_who_goes_through_when_the_report_picked_a_decider(
    eager, cup, orga, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table = publish(cup, orga).tables.get()
    seated = list(table.match.seats.order_by("seat").values_list("player_id", "player__name"))
    report = report_open(
        match_id=table.match_id,
        expected_version=0,
        reporter_id=seated[0][0],
        reported_by=people[0],
        places=[1, 2, 2, 4],
        advancing=[seated[0][0], seated[1][0]],
        awaiting=[pid for pid, _ in seated[1:]],
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.notify_confirm(
            tournament_id=cup.pk, table_id=table.pk, report_id=report.pk, user_ids=[people[2].pk]
        )
    text = (
        "A result waits for your confirmation in \u2068Club Cup\u2069: round 1, table 1. "
        f"The report says \u2068{seated[0][1]}\u2069 and \u2068{seated[1][1]}\u2069 go through."
    )
    assert [row for row in inbox("cal") if row[0] == "confirm_result"] == [
        ("confirm_result", text, "/tournaments/club-cup/rounds/1/")
    ]


def test_a_dispute_tells_the_organizers(eager, cup, orga, people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        table = publish(cup, orga).tables.get()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.emit(events.result_disputed, tournament_id=cup.pk, table_id=table.pk, dispute_id=3)
    text = (
        "A result is disputed in \u2068Club Cup\u2069: round 1, table 1. Settle it with an organizer entry."
    )
    assert inbox("orga") == [("table_disputed", text, "/tournaments/club-cup/rounds/1/")]
    assert inbox("staff") == [("table_disputed", text, "/tournaments/club-cup/rounds/1/")]  # the creator
    assert Notification.objects.filter(kind="table_disputed").count() == 2
    assert mails() == [
        (["orga@example.com"], f"Pecking Order: {text}"),
        (["staff@example.com"], f"Pecking Order: {text}"),
    ]


def test_the_players_hear_when_the_tournament_finishes(
    eager, cup, orga, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        round_row = publish(cup, orga)
        table = round_row.tables.get()
        tournament_services.table_result(table=table, by=orga, expected_version=0, places=[1, 2, 3, 4])
        tournament_services.round_complete(round_row=round_row, by=orga)
    cup.refresh_from_db()
    assert cup.status == "finished"
    text = "\u2068Club Cup\u2069 is finished: see the final standings."
    for username in ("ada", "bea", "cal", "dov"):
        assert inbox(username)[-1] == ("tournament_finished", text, "/tournaments/club-cup/")
    assert Notification.objects.filter(kind="tournament_finished").count() == 4
