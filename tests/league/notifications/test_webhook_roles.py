"""A webhook lasts as long as its owner's role and account: an organizer removed from the tournament gets no
more deliveries and no longer sees the webhook or its deliveries; a staff member who loses staff rights, the
same for a bot league's; a deleted account takes its webhooks with it."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from league.accounts.services import account_delete
from league.core.errors import NotFound
from league.notifications import selectors, webhooks
from league.notifications.models import Attempt, Delivery, Webhook
from league.tournaments import services as tournament_services
from tests.factories import StaffFactory
from tests.league.bots.conftest import make_bots, make_league


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def reads(user, webhook) -> dict[str, int]:
    """The status of each way `user` can read `webhook` (pages and API), and how many webhooks they list."""
    page, rest = Client(), api(user)
    page.force_login(user)
    return {
        "page": page.get(f"/webhooks/{webhook.pk}/").status_code,
        "listed on the page": page.get("/webhooks/")
        .content.decode()
        .count(f'href="/webhooks/{webhook.pk}/"'),
        "api": rest.get(f"/api/webhooks/{webhook.pk}/").status_code,
        "api deliveries": rest.get(f"/api/webhooks/{webhook.pk}/deliveries/").status_code,
        "listed by the api": rest.get("/api/webhooks/").json()["count"],
    }


READABLE = {"page": 200, "listed on the page": 1, "api": 200, "api deliveries": 200, "listed by the api": 1}
GONE = {"page": 404, "listed on the page": 0, "api": 404, "api deliveries": 404, "listed by the api": 0}


def test_an_organizer_removed_from_the_tournament_gets_no_more_deliveries_and_cannot_read_the_webhook(
    eager, allow_loopback, cup, orga, receiver, django_capture_on_commit_callbacks
):
    webhook = webhooks.webhook_create(
        by=orga, url=receiver.url, events=["table.ready", "result.recorded"], tournament=cup
    )
    assert reads(orga, webhook) == READABLE
    (before,) = webhooks.deliveries_create(event="table.ready", key="before", data={}, tournament_id=cup.pk)

    staff = cup.created_by
    tournament_services.role_remove(tournament=cup, by=staff, username="orga", role="organizer")

    # The delivery made while orga organized is cancelled at its attempt: nothing is sent.
    assert webhooks.delivery_attempt(delivery_pk=before, final=False) == "cancelled"
    with django_capture_on_commit_callbacks(execute=True):
        round_row = tournament_services.round_generate(tournament=cup, by=staff)
        tournament_services.round_publish(round_row=round_row, by=staff)
    assert receiver.received == []
    assert list(Delivery.objects.values_list("key", "status")) == [("before", "cancelled")]
    assert Delivery.objects.get().finished_at is not None
    assert not Attempt.objects.exists()

    assert reads(orga, webhook) == GONE
    assert api(orga).delete(f"/api/webhooks/{webhook.pk}/").status_code == 404
    with pytest.raises(NotFound):
        webhooks.owned_webhook(by=orga, webhook_id=webhook.pk)
    assert list(selectors.webhooks_of(orga)) == []
    assert Webhook.objects.filter(pk=webhook.pk).exists()  # kept for site staff (the admin), inert


def test_a_league_webhook_ends_when_its_owner_loses_staff_rights(db, allow_loopback, receiver):
    staff = StaffFactory(username="operator")
    league = make_league(staff, make_bots(staff))
    webhook = webhooks.webhook_create(
        by=staff, url=receiver.url, events=["league.round_rated"], league=league
    )
    (pk,) = webhooks.deliveries_create(event="league.round_rated", key="r1", data={}, league_id=league.pk)
    staff.is_staff = False
    staff.save(update_fields=["is_staff"])

    assert webhooks.delivery_attempt(delivery_pk=pk, final=False) == "cancelled"
    assert (
        webhooks.deliveries_create(event="league.round_rated", key="r2", data={}, league_id=league.pk) == []
    )
    assert (receiver.received, list(Delivery.objects.values_list("key", "status"))) == (
        [],
        [("r1", "cancelled")],
    )
    assert reads(staff, webhook) == GONE


def test_an_organizer_still_in_the_role_keeps_getting_deliveries(db, allow_loopback, cup, orga, receiver):
    webhook = webhooks.webhook_create(by=orga, url=receiver.url, events=["table.ready"], tournament=cup)
    (pk,) = webhooks.deliveries_create(event="table.ready", key="k", data={}, tournament_id=cup.pk)
    assert webhooks.delivery_attempt(delivery_pk=pk, final=False) == "delivered"
    assert [item["headers"]["X-PeckingOrder-Delivery"] for item in receiver.received] == [
        str(Delivery.objects.get(webhook=webhook).delivery_id)
    ]


def test_deleting_the_account_deletes_its_webhooks_with_their_deliveries_and_no_one_elses(
    db, allow_loopback, cup, orga, receiver
):
    staff = cup.created_by
    mine = webhooks.webhook_create(by=orga, url=receiver.url, events=["table.ready"], tournament=cup)
    theirs = webhooks.webhook_create(by=staff, url=receiver.url, events=["table.ready"], tournament=cup)
    pending = webhooks.deliveries_create(event="table.ready", key="k", data={}, tournament_id=cup.pk)
    assert [webhooks.delivery_attempt(delivery_pk=pk, final=False) for pk in pending] == ["delivered"] * 2

    account_delete(user=orga, password="pass-word-123")

    assert list(Webhook.objects.values_list("pk", flat=True)) == [theirs.pk]
    assert list(Delivery.objects.values_list("webhook", flat=True)) == [theirs.pk]
    assert list(Attempt.objects.values_list("delivery__webhook", "status_code")) == [(theirs.pk, 204)]
    assert not Webhook.objects.filter(pk=mine.pk).exists()
