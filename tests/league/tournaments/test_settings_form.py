"""The settings page is one form: what is typed into its settings, sign-up and schedule is saved together,
and a refusal of any part brings the page back with everything as typed."""

from datetime import UTC, datetime

from league.tournaments.models import AuditEntry
from tests.factories.tournaments import open_signup
from tests.league.page_forms import posted


def test_typing_into_settings_sign_up_and_schedule_saves_all_three(client, organizer):
    tournament = open_signup(organizer)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/settings/"
    page = client.get(url)
    data = posted(page, "settings-form")
    assert {"venue", "capacity", "time_zone", "starts_at", "round_time_1"} <= set(data), "one form holds all"
    assert page.content.decode().count('id="save-settings"') == 1
    assert "Save sign-up" not in page.content.decode() and "Save schedule" not in page.content.decode()
    data.update(
        venue="Town hall, room 2",
        capacity="16",
        time_zone="Europe/Berlin",
        starts_at="2026-12-05T10:00",
        round_time_1="2026-12-05T10:30",
        round_time_2="2026-12-05T12:00",
    )
    saved = client.post(f"{url}save/", data)
    assert (saved.status_code, saved["Location"]) == (302, url)
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.capacity, tournament.self_signup, tournament.time_zone) == (
        "Town hall, room 2",
        16,
        True,
        "Europe/Berlin",
    )
    assert tournament.starts_at == datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    assert [(row.number, row.starts_at) for row in tournament.round_times.all()] == [
        (1, datetime(2026, 12, 5, 9, 30, tzinfo=UTC)),
        (2, datetime(2026, 12, 5, 11, 0, tzinfo=UTC)),
    ]
    again = posted(client.get(url), "settings-form")
    assert (again["venue"], again["capacity"], again["round_time_2"], again["round_time_3"]) == (
        "Town hall, room 2",
        "16",
        "2026-12-05T12:00",
        "",
    )


def test_a_refused_part_keeps_what_was_typed_in_every_part_and_stores_none(client, organizer):
    tournament = open_signup(organizer)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/settings/"
    data = posted(client.get(url), "settings-form")
    entries = AuditEntry.objects.filter(tournament=tournament).count()
    data.update(venue="Library", capacity="12", starts_at="2026-12-05T10:00", round_time_1="2026-12-05T09:00")
    refused = client.post(f"{url}save/", data)
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "round 1 starts before the tournament" in body
    shown = posted(refused, "settings-form")
    assert (shown["venue"], shown["capacity"], shown["starts_at"], shown["round_time_1"]) == (
        "Library",
        "12",
        "2026-12-05T10:00",
        "2026-12-05T09:00",
    )
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.capacity, tournament.starts_at) == ("", None, None)
    assert AuditEntry.objects.filter(tournament=tournament).count() == entries


def test_a_bad_value_in_one_part_is_a_form_error_and_the_others_stay(client, organizer):
    tournament = open_signup(organizer)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/settings/"
    data = posted(client.get(url), "settings-form")
    data.update(venue="Library", capacity="0", time_zone="Mars/Olympus", round_time_99999="x")
    refused = client.post(f"{url}save/", data)
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "Ensure this value is greater than or equal to 1." in body
    assert posted(refused, "settings-form")["venue"] == "Library"
    tournament.refresh_from_db()
    assert tournament.venue == ""


def test_time_zones_are_picked_and_matched_without_regard_to_case(client, organizer):
    tournament = open_signup(organizer)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/settings/"
    page = client.get(url)
    assert '<select name="time_zone"' in page.content.decode()
    for typed, stored in (("europe/berlin", "Europe/Berlin"), ("CET", "CET"), (" asia/TOKYO ", "Asia/Tokyo")):
        data = {**posted(page, "settings-form"), "time_zone": typed}
        assert client.post(f"{url}save/", data).status_code == 302, typed
        tournament.refresh_from_db()
        assert tournament.time_zone == stored
    refused = client.post(f"{url}save/", {**posted(page, "settings-form"), "time_zone": "Berlin"})
    assert refused.status_code == 400
    assert "&#x27;Berlin&#x27; is not a time zone: give an IANA name such as Europe/Berlin" in (
        refused.content.decode()
    )


def test_a_start_in_the_past_is_kept_with_a_warning(client, organizer):
    tournament = open_signup(organizer)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/settings/"
    data = {**posted(client.get(url), "settings-form"), "time_zone": "UTC", "starts_at": "2020-03-01T10:00"}
    saved = client.post(f"{url}save/", data, follow=True)
    assert saved.status_code == 200
    assert (
        "The start, Sun 1 Mar 2020, 10:00 (UTC), is in the past: kept as given "
        "(right for recording an event already played)." in saved.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.starts_at == datetime(2020, 3, 1, 10, 0, tzinfo=UTC)
