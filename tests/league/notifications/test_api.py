"""The API of my notifications and my webhooks: my own rows only, errors like every other operation's."""

from __future__ import annotations

from rest_framework.test import APIClient

from league.notifications.models import Notification, Webhook


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def note(user, key, text="Your table is ready.") -> Notification:
    return Notification.objects.create(
        user=user, kind="table_ready", key=key, text=text, link="/tournaments/"
    )


def test_my_notifications_are_listed_and_marked_read_and_no_one_elses(people):
    ada, bea = people[:2]
    first, second, theirs = note(ada, "a"), note(ada, "b", "Second."), note(bea, "c")
    listed = api(ada).get("/api/notifications/").json()
    assert (listed["count"], [row["id"] for row in listed["results"]]) == (2, [second.pk, first.pk])
    assert listed["results"][0] | {"created_at": None} == {
        "id": second.pk,
        "kind": "table_ready",
        "text": "Second.",
        "link": "/tournaments/",
        "tournament": None,
        "table": None,
        "created_at": None,
        "read_at": None,
    }
    response = api(ada).post("/api/notifications/read/", {"ids": [first.pk, theirs.pk]}, format="json")
    assert (response.status_code, response.json()) == (200, {"marked": 1, "unread": 1})
    theirs.refresh_from_db()
    assert theirs.read_at is None
    assert api(ada).post("/api/notifications/read/", {"all": True}, format="json").json() == {
        "marked": 1,
        "unread": 0,
    }
    bad = api(ada).post("/api/notifications/read/", {}, format="json")
    assert (bad.status_code, bad.json()["detail"], bad.json()["field"]) == (
        400,
        'give "ids" (a list) or "all": true',
        "ids",
    )
    wrong = api(ada).post("/api/notifications/read/", {"ids": ["x"]}, format="json")
    assert (wrong.status_code, wrong.json()["field"]) == (400, "ids.0")
    assert api().get("/api/notifications/").status_code == 401


def test_webhooks_through_the_api_are_their_owners_alone(cup, orga, people):
    created = api(orga).post(
        "/api/webhooks/",
        {"url": "https://example.com/in", "events": ["table.ready"], "tournament": cup.pk},
        format="json",
    )
    assert created.status_code == 201
    body = created.json()
    webhook = Webhook.objects.get()
    assert (body["id"], body["secret"], body["events"], body["tournament"]) == (
        webhook.pk,
        webhook.secret,
        ["table.ready"],
        cup.pk,
    )
    assert api(orga).get(f"/api/webhooks/{webhook.pk}/deliveries/").json()["count"] == 0

    stranger = api(people[0])
    for method, url in (
        ("get", f"/api/webhooks/{webhook.pk}/"),
        ("get", f"/api/webhooks/{webhook.pk}/deliveries/"),
        ("delete", f"/api/webhooks/{webhook.pk}/"),
    ):
        response = getattr(stranger, method)(url)
        assert (response.status_code, response.json()["detail"]) == (404, "no such webhook"), url
    assert stranger.get("/api/webhooks/").json()["count"] == 0
    forbidden = stranger.post(
        "/api/webhooks/",
        {"url": "https://evil.example/", "events": ["table.ready"], "tournament": cup.pk},
        format="json",
    )
    assert (forbidden.status_code, forbidden.json()["code"]) == (403, "forbidden")
    scheme = api(orga).post(
        "/api/webhooks/",
        {"url": "gopher://127.0.0.1:6379/", "events": ["table.ready"], "tournament": cup.pk},
        format="json",
    )
    assert (scheme.status_code, scheme.json()["detail"], scheme.json()["field"]) == (
        400,
        "the URL must start with http:// or https://, not gopher:",
        "url",
    )
    league = api(orga).post(
        "/api/webhooks/",
        {"url": "https://a.example/", "events": ["league.round_rated"], "league": 99},
        format="json",
    )
    assert (league.status_code, league.json()["detail"]) == (400, "no bot league with id 99")
    assert api(orga).delete(f"/api/webhooks/{webhook.pk}/").status_code == 204
    assert not Webhook.objects.exists()
