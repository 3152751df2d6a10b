"""The demo tournaments of `make run`: a live Swiss, a half-played cup and an open day open for sign-up with
its check-in window open, created once."""

from django.core.management import call_command

from league.site.demo import DEMO_NAMES
from league.tournaments import selectors
from league.tournaments.models import Round, Tournament
from tests.factories import StaffFactory
from tests.factories.tournaments import players_named


def test_the_demo_tournaments_are_created_once_and_are_live(db, capsys, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    StaffFactory(username="admin")
    players_named(DEMO_NAMES)
    call_command("tournament_demo")
    call_command("tournament_demo")
    output = capsys.readouterr().out.splitlines()
    assert output == [
        "Created the demo tournaments: Demo Swiss: Nacho Pile pods, Demo Cup: Chicken Foot, Demo Open Day: "
        "Chickie Nuggs.",
        "The demo tournaments exist already (or there are too few players).",
    ]
    swiss = Tournament.objects.get(name="Demo Swiss: Nacho Pile pods")
    cup = Tournament.objects.get(name="Demo Cup: Chicken Foot")
    assert (swiss.status, cup.status) == ("running", "running")
    assert list(swiss.round_set.values_list("number", "status")) == [
        (1, "complete"),
        (2, "complete"),
        (3, "published"),
    ]
    assert list(cup.round_set.values_list("number", "status")) == [(1, "complete"), (2, "published")]
    live = Round.objects.get(tournament=swiss, number=3)
    assert [table.match.status for table in live.tables.order_by("number")] == [
        "finished",
        "finished",
        "scheduled",
        "scheduled",
    ]

    open_day = Tournament.objects.get(name="Demo Open Day: Chickie Nuggs")
    assert (open_day.status, open_day.self_signup, open_day.capacity, open_day.time_zone) == (
        "registration",
        True,
        12,
        "Europe/Berlin",
    )
    assert selectors.check_in_state(open_day) == "open"
    assert selectors.places_left(open_day, list(open_day.registrations.all())) == 7
    assert open_day.registrations.filter(checked_in_at__isnull=False).count() == 3
    assert open_day.round_times.count() == 3
