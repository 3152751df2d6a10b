"""Open sign-up: players join and leave themselves, a cap with a waitlist that moves up in order, approval,
the check-in window, and the Start that drops no-shows and moves checked-in waitlisted players up."""

import pytest

from league.core.errors import Forbidden, NotFound, UserError
from league.tournaments import selectors, services
from league.tournaments.errors import StateConflict
from league.tournaments.models import Tournament
from tests.factories import UserFactory
from tests.factories.tournaments import open_signup, statuses, user_with_player

NAMES = ("Ada", "Bea", "Cal", "Dov", "Eli", "Fay", "Gus", "Hal")
OPEN_CHECK_IN = {
    "time_zone": "Europe/Berlin",
    "starts_at": "2099-12-05 10:00",
    "checkin_opens_at": "2020-01-01 09:00",
}
LATER_CHECK_IN = {
    "time_zone": "Europe/Berlin",
    "starts_at": "2099-12-05 10:00",
    "checkin_opens_at": "2099-12-05 09:00",
}


@pytest.fixture
def people(db):
    """Users ada, bea, ... each owning the player of that name."""
    return {name: user_with_player(name.lower(), name) for name in NAMES}


def join(tournament, people, *names):
    return [services.registration_join(tournament=tournament, by=people[name]).status for name in names]


def queue(tournament) -> list[str]:
    return [
        reg.player.name for reg in selectors.waitlist(list(tournament.registrations.select_related("player")))
    ]


def test_a_full_tournament_sends_joiners_to_the_waitlist_which_moves_up_in_order(organizer, people):
    tournament = open_signup(organizer, capacity=2)
    assert join(tournament, people, "Ada", "Bea", "Cal", "Dov", "Eli") == [
        "active",
        "active",
        "waitlisted",
        "waitlisted",
        "waitlisted",
    ]
    assert queue(tournament) == ["Cal", "Dov", "Eli"]
    services.registration_withdraw(tournament=tournament, by=people["Ada"])
    assert statuses(tournament) == {
        "Ada": "withdrawn",
        "Bea": "active",
        "Cal": "active",
        "Dov": "waitlisted",
        "Eli": "waitlisted",
    }
    services.registration_withdraw(tournament=tournament, by=people["Dov"])
    assert queue(tournament) == ["Eli"], "a waitlisted player leaving frees no place"
    assert join(tournament, people, "Ada") == ["waitlisted"], "who comes back queues at the back"
    assert queue(tournament) == ["Eli", "Ada"]
    services.signup_configure(tournament=tournament, by=organizer, capacity=3)
    assert statuses(tournament)["Eli"] == "active"
    assert queue(tournament) == ["Ada"]
    services.signup_configure(tournament=tournament, by=organizer, capacity=None)
    assert statuses(tournament) == {
        "Ada": "active",
        "Bea": "active",
        "Cal": "active",
        "Dov": "withdrawn",
        "Eli": "active",
    }


def test_an_organizers_withdrawal_frees_a_place_too_and_hand_entries_bypass_the_cap(organizer, people):
    tournament = open_signup(organizer, capacity=2)
    join(tournament, people, "Ada", "Bea", "Cal", "Dov")
    services.registration_leave(
        tournament=tournament, by=organizer, player_id=people["Bea"].player.pk, status="withdrawn"
    )
    assert statuses(tournament)["Cal"] == "active"
    hand = services.registration_add(tournament=tournament, by=organizer, name="Zed")
    assert hand.status == "active"
    dov = services.registration_add(tournament=tournament, by=organizer, player_id=people["Dov"].player.pk)
    assert dov.status == "active", "an organizer's entry takes a waitlisted player in at once"
    assert selectors.places_left(tournament, list(tournament.registrations.all())) == 0
    assert join(tournament, people, "Eli") == ["waitlisted"]


def test_without_a_waitlist_a_full_tournament_refuses_joiners(organizer, people):
    tournament = open_signup(organizer, capacity=1, waitlist=False)
    join(tournament, people, "Ada")
    with pytest.raises(StateConflict, match="^the tournament is full$"):
        join(tournament, people, "Bea")


def test_with_approval_joins_wait_and_only_approved_waitlisted_players_move_up(organizer, people):
    tournament = open_signup(organizer, capacity=1, approval=True)
    assert join(tournament, people, "Ada", "Bea", "Cal", "Dov") == ["pending"] * 4

    def decide(name, approve):
        return services.registration_decide(
            tournament=tournament, by=organizer, player_id=people[name].player.pk, approve=approve
        ).status

    assert decide("Ada", True) == "active"
    assert decide("Cal", True) == "waitlisted"
    assert decide("Dov", False) == "declined"
    services.registration_withdraw(tournament=tournament, by=people["Ada"])
    assert statuses(tournament) == {"Ada": "withdrawn", "Bea": "pending", "Cal": "active", "Dov": "declined"}
    with pytest.raises(
        Forbidden, match="the organizers declined your entry: ask them if you think this is a mistake"
    ):
        join(tournament, people, "Dov")
    with pytest.raises(StateConflict, match=r"^Cal is not waiting for approval \(active\)$"):
        decide("Cal", True)
    with pytest.raises(UserError, match="^your entry already waits for the organizers' approval$"):
        join(tournament, people, "Bea")


def test_joining_is_refused_with_a_clear_message(organizer, people):
    draft = services.tournament_create(created_by=organizer, name="Draft", game_id="nacho_pile", rounds=1)
    with pytest.raises(StateConflict, match="^sign-up has not opened yet$"):
        join(draft, people, "Ada")
    by_hand = services.tournament_create(created_by=organizer, name="By hand", game_id="nacho_pile", rounds=1)
    services.tournament_open_registration(tournament=by_hand, by=organizer)
    with pytest.raises(
        StateConflict, match="^the organizers register the players of this tournament: ask them"
    ):
        join(by_hand, people, "Ada")
    tournament = open_signup(organizer)
    join(tournament, people, "Ada")
    with pytest.raises(UserError, match="^you are already registered$"):
        join(tournament, people, "Ada")
    with pytest.raises(
        Forbidden, match=r"^you have no player yet: create yours on your page \(/me/\) first$"
    ):
        services.registration_join(tournament=tournament, by=UserFactory(username="nobody"))
    with pytest.raises(NotFound, match="^you are not registered in this tournament$"):
        services.registration_withdraw(tournament=tournament, by=people["Bea"])
    join(tournament, people, "Bea")
    services.tournament_start(tournament=tournament, by=organizer)
    with pytest.raises(StateConflict, match="^the tournament has started: sign-up is closed$"):
        join(tournament, people, "Cal")
    with pytest.raises(StateConflict, match="^the tournament has started: ask an organizer to drop you$"):
        services.registration_withdraw(tournament=tournament, by=people["Ada"])


def test_check_in_before_the_window_opens_is_refused_with_its_time(organizer, people):
    tournament = open_signup(organizer, schedule=LATER_CHECK_IN)
    join(tournament, people, "Ada", "Bea")
    with pytest.raises(StateConflict, match=r"^check-in opens on Sat 5 Dec 2099, 09:00 \(Europe/Berlin\)$"):
        services.registration_check_in(tournament=tournament, by=people["Ada"])
    by_hand = services.registration_check_in(
        tournament=tournament, by=organizer, player_id=people["Bea"].player.pk
    )
    assert by_hand.checked_in_at is not None, "organizers check people in whenever before the start"


def test_check_in_while_open_after_start_and_without_check_in(organizer, people):
    tournament = open_signup(organizer, capacity=1, schedule=OPEN_CHECK_IN)
    join(tournament, people, "Ada", "Bea", "Cal")
    assert services.registration_check_in(tournament=tournament, by=people["Ada"]).checked_in_at is not None
    assert services.registration_check_in(tournament=tournament, by=people["Bea"]).checked_in_at is not None
    undone = services.registration_check_in(tournament=tournament, by=people["Bea"], checked_in=False)
    assert undone.checked_in_at is None
    with pytest.raises(NotFound, match="^you are not registered in this tournament$"):
        services.registration_check_in(tournament=tournament, by=people["Dov"])
    services.registration_withdraw(tournament=tournament, by=people["Cal"])
    with pytest.raises(NotFound, match="^you are not registered in this tournament$"):
        services.registration_check_in(tournament=tournament, by=people["Cal"])
    services.registration_add(tournament=tournament, by=organizer, name="Zed")
    services.registration_check_in(
        tournament=tournament,
        by=organizer,
        player_id=tournament.registrations.get(player__name="Zed").player_id,
    )
    services.tournament_start(tournament=tournament, by=organizer, confirm=True)
    with pytest.raises(StateConflict, match="^the tournament has started: check-in is closed$"):
        services.registration_check_in(tournament=tournament, by=people["Ada"])
    plain = open_signup(organizer, name="No check-in")
    join(plain, people, "Ada")
    with pytest.raises(StateConflict, match="^this tournament does not use check-in$"):
        services.registration_check_in(tournament=plain, by=people["Ada"])


def test_pending_players_do_not_check_in(organizer, people):
    tournament = open_signup(organizer, approval=True, schedule=OPEN_CHECK_IN)
    join(tournament, people, "Ada")
    with pytest.raises(
        StateConflict, match="^Ada is awaiting approval: registered and waitlisted players check in$"
    ):
        services.registration_check_in(tournament=tournament, by=people["Ada"])


@pytest.fixture
def checked(organizer, people):
    """Cap 4: Ada, Bea, Cal, Dov registered; Eli, Fay, Gus, Hal waitlisted in that order. Checked in: Ada,
    Cal, Fay, Gus, Hal."""
    tournament = open_signup(organizer, capacity=4, schedule=OPEN_CHECK_IN)
    join(tournament, people, *NAMES)
    for name in ("Ada", "Cal", "Fay", "Gus", "Hal"):
        services.registration_check_in(tournament=tournament, by=people[name])
    return tournament


def names(registrations) -> list[str]:
    return [reg.player.name for reg in registrations]


def test_the_start_plan_drops_no_shows_and_promotes_checked_in_waitlisted_players_in_order(checked):
    plan = selectors.start_plan(checked)
    assert plan.check_in is True
    assert names(plan.dropped) == ["Bea", "Dov"]
    assert names(plan.promoted) == ["Fay", "Gus"], "two places: the cap of 4 less the 2 present"
    assert names(plan.staying) == ["Eli", "Hal"], "Eli did not check in; Hal found no place"
    assert names(plan.starting) == ["Ada", "Cal", "Fay", "Gus"]


def test_the_start_asks_for_confirmation_refuses_a_stale_plan_and_then_carries_it_out(
    checked, organizer, people
):
    with pytest.raises(
        UserError,
        match="^check-in is on: starting drops 2 no-show\\(s\\) and moves 2 up from the "
        "waitlist; look at the start preview and confirm$",
    ):
        services.tournament_start(tournament=checked, by=organizer)
    ids = {name: people[name].player.pk for name in NAMES}
    shown = {"dropped": [ids["Bea"], ids["Dov"]], "promoted": [ids["Fay"], ids["Gus"]]}
    services.registration_check_in(tournament=checked, by=people["Dov"])
    with pytest.raises(
        StateConflict, match="^check-ins changed since the preview: look at the start preview again$"
    ):
        services.tournament_start(tournament=checked, by=organizer, confirm=True, **shown)
    assert checked.registrations.filter(status="no_show").count() == 0, "nothing written"
    fresh = {"dropped": [ids["Bea"]], "promoted": [ids["Fay"]]}
    started = services.tournament_start(tournament=checked, by=organizer, confirm=True, **fresh)
    assert started.status == Tournament.Status.RUNNING
    rows = checked.registrations.select_related("player").order_by("player__name")
    assert [(reg.player.name, reg.status, reg.seed) for reg in rows] == [
        ("Ada", "active", 1),
        ("Bea", "no_show", None),
        ("Cal", "active", 2),
        ("Dov", "active", 3),
        ("Eli", "waitlisted", None),
        ("Fay", "active", 4),
        ("Gus", "waitlisted", None),
        ("Hal", "waitlisted", None),
    ]


def test_no_shows_leave_no_gap_in_hand_seeds(organizer, people):
    tournament = open_signup(organizer, schedule=OPEN_CHECK_IN)
    join(tournament, people, "Ada", "Bea", "Cal", "Dov")
    services.tournament_seed(
        tournament=tournament,
        by=organizer,
        method="hand",
        order=[people[name].player.pk for name in ("Dov", "Cal", "Bea", "Ada")],
    )
    for name in ("Ada", "Bea", "Dov"):
        services.registration_check_in(tournament=tournament, by=people[name])
    services.tournament_start(tournament=tournament, by=organizer, confirm=True)
    seeds = dict(tournament.registrations.values_list("player__name", "seed"))
    assert seeds == {"Dov": 1, "Bea": 2, "Ada": 3, "Cal": None}


def test_without_check_in_start_behaves_as_before(organizer, people):
    tournament = open_signup(organizer, capacity=2)
    join(tournament, people, "Ada", "Bea", "Cal")
    plan = selectors.start_plan(tournament)
    assert (plan.check_in, plan.dropped, plan.promoted, names(plan.starting)) == (
        False,
        [],
        [],
        ["Ada", "Bea"],
    )
    services.tournament_start(tournament=tournament, by=organizer)
    assert statuses(tournament) == {"Ada": "active", "Bea": "active", "Cal": "waitlisted"}


def test_the_start_needs_enough_players_after_the_no_shows(organizer, people):
    tournament = open_signup(organizer, schedule=OPEN_CHECK_IN)
    join(tournament, people, "Ada", "Bea", "Cal")
    services.registration_check_in(tournament=tournament, by=people["Ada"])
    with pytest.raises(StateConflict, match="^a tournament needs at least 2 registered players to start$"):
        services.tournament_start(tournament=tournament, by=organizer, confirm=True)
    assert statuses(tournament) == {"Ada": "active", "Bea": "active", "Cal": "active"}


def test_waitlisted_players_left_over_may_still_enter_late_by_hand(organizer, people, play_round):
    tournament = open_signup(organizer, capacity=2)
    join(tournament, people, "Ada", "Bea", "Cal")
    services.tournament_start(tournament=tournament, by=organizer)
    tournament.refresh_from_db()
    play_round(tournament)
    with pytest.raises(StateConflict, match="^Cal is waitlisted, not playing$"):
        services.registration_leave(
            tournament=tournament, by=organizer, player_id=people["Cal"].player.pk, status="dropped"
        )
    late = services.registration_add(tournament=tournament, by=organizer, player_id=people["Cal"].player.pk)
    assert (late.status, late.entered_round, late.seed) == ("active", 2, 3)
