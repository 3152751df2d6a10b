"""The inbox page: the unread count in the header, mark read (mine only), mark all read, mail settings."""

from __future__ import annotations

from django.test import Client

from league.notifications.models import MailPreference, Notification


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def note(user, key, text) -> Notification:
    return Notification.objects.create(
        user=user, kind="table_ready", key=key, text=text, link="/tournaments/"
    )


def test_the_header_counts_unread_and_the_inbox_marks_them_read(people):
    ada, bea = people[:2]
    first, second = (
        note(ada, "a", "Your table is ready in Club Cup."),
        note(ada, "b", "Club Cup is finished."),
    )
    theirs = note(bea, "c", "Not yours.")
    client = signed_in(ada)
    page = client.get("/notifications/").content.decode()
    assert '<span class="unread-count" id="unread-count">2</span>' in page
    assert page.index("Club Cup is finished.") < page.index("Your table is ready in Club Cup.")
    assert "Not yours." not in page

    response = client.post("/notifications/read/", {"id": [str(first.pk), str(theirs.pk)]})
    assert response["Location"] == "/notifications/"
    page = client.get("/notifications/").content.decode()
    assert '<span class="unread-count" id="unread-count">1</span>' in page
    assert "Marked 1 notification read." in page
    theirs.refresh_from_db()
    assert theirs.read_at is None
    client.post("/notifications/read/", {"id": ["1; DROP TABLE"]})
    assert "choose the notifications to mark read" in client.get("/notifications/").content.decode()
    client.post("/notifications/read-all/")
    page = client.get("/notifications/").content.decode()
    assert "unread-count" not in page and "Marked 1 notification read." in page
    second.refresh_from_db()
    assert second.read_at is not None
    assert client.get("/notifications/read-all/").status_code == 405
    assert Client().get("/notifications/")["Location"] == "/accounts/login/?next=/notifications/"
    assert 'id="inbox-link"' not in Client().get("/").content.decode()


def test_mail_settings_are_saved_per_kind_or_all(people):
    client = signed_in(people[0])
    client.post(
        "/notifications/mail/", {"email_enabled": "on", "kinds": ["table_ready", "tournament_finished"]}
    )
    preference = MailPreference.objects.get(user=people[0])
    assert (preference.email_enabled, preference.muted_kinds) == (
        True,
        [
            "account",
            "bot_checked",
            "bot_forfeited",
            "bot_match_voided",
            "confirm_result",
            "invited",
            "round_waiting",
            "table_disputed",
            "tournament_cancelled",
        ],
    )
    page = client.get("/notifications/").content.decode()
    assert '<input type="checkbox" name="kinds" value="table_ready" checked>' in page
    assert '<input type="checkbox" name="kinds" value="confirm_result" >' in page
    client.post("/notifications/mail/", {"kinds": ["table_ready", "nonsense"]})
    assert "choose among the kinds of notification shown" in client.get("/notifications/").content.decode()
    client.post("/notifications/mail/", {})
    preference.refresh_from_db()
    assert (preference.email_enabled, len(preference.muted_kinds)) == (False, 11)
