"""An invitation to a tournament reaches the invitee's inbox (and mail), once per tournament, and links to the
tournament's page where they accept or decline it."""

from __future__ import annotations

from django.core import mail
from django.test import Client

from league.notifications.models import Notification
from league.tournaments import services as tournament_services
from tests.factories import PlayerFactory, StaffFactory, UserFactory

INVITED = "You are invited to \u2068Spring Open\u2069: accept or decline on its page."


def spring(orga):
    staff = StaffFactory(username="staff")
    tournament = tournament_services.tournament_create(
        created_by=staff, name="Spring Open", game_id="nacho_pile", table_size=2, rounds=1, rated=True
    )
    tournament_services.organizer_add(tournament=tournament, by=staff, username=orga.username)
    tournament_services.tournament_open_registration(tournament=tournament, by=orga)
    return tournament


def test_the_invitee_hears_of_it_once_in_their_inbox(eager, orga, django_capture_on_commit_callbacks):
    chiara = UserFactory(username="demo", email="demo@example.com")
    PlayerFactory(name="Chiara", user=chiara)
    tournament = spring(orga)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.registration_invite(tournament=tournament, by=orga, username="demo")
    notes = list(Notification.objects.values_list("user__username", "kind", "text", "link"))
    assert notes == [("demo", "invited", INVITED, "/tournaments/spring-open/")]
    assert [(message.to, message.subject) for message in mail.outbox] == [
        (["demo@example.com"], f"Pecking Order: {INVITED}")
    ]
    client = Client()
    client.force_login(chiara, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get("/notifications/").content.decode()
    assert (
        '<a href="/tournaments/spring-open/">You are invited to <bdi>Spring Open</bdi>: accept or decline on '
        "its page.</a>" in page
    )
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.invitation_answer(tournament=tournament, by=chiara, accept=False)
        tournament_services.registration_invite(tournament=tournament, by=orga, username="demo")
    assert Notification.objects.count() == 1
    assert len(mail.outbox) == 1


def test_an_invitation_declined_before_the_task_runs_tells_nobody(
    eager, orga, django_capture_on_commit_callbacks
):
    bea = UserFactory(username="bea", email="bea@example.com")
    PlayerFactory(name="Bea", user=bea)
    tournament = spring(orga)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        tournament_services.registration_invite(tournament=tournament, by=orga, username="bea")
    tournament_services.invitation_answer(tournament=tournament, by=bea, accept=False)
    for callback in callbacks:
        callback()
    assert (Notification.objects.count(), len(mail.outbox)) == (0, 0)
