"""2-seat brackets flow match by match: a match opens as soon as the matches feeding it have results, in its
round (the bracket's column); rounds complete by themselves. A correction that changes who plays a later
match is refused unless the organizer resets that match, which voids it and opens it again."""

import random

import pytest
from rest_framework.test import APIClient

from league.core.errors import UserError
from league.matches.models import Match
from league.ratings.models import RatingHistory
from league.results.models import ResultVersion
from league.tournaments import selectors, services
from league.tournaments.history import load_history
from league.tournaments.models import Round, Table, Tournament


def board(tournament):
    """Every table: (round, round status, table number, label, player names in seat order, closed_as)."""
    names = dict(tournament.registrations.values_list("player_id", "player__name"))
    return [
        (
            table.round.number,
            table.round.status,
            table.number,
            table.label,
            [names[pid] for pid in table.planned_seats],
            table.closed_as,
        )
        for table in Table.objects.filter(round__tournament=tournament)
        .select_related("round")
        .order_by("round__number", "number")
    ]


def table_of(tournament, label):
    return (
        Table.objects.filter(round__tournament=tournament, label=label)
        .exclude(closed_as=Table.Closed.RESET)
        .select_related("match", "round")
        .get()
    )


def win(tournament, organizer, label, winner, **options):
    """Enter the result of the live table of `label`: `winner` (a name) first."""
    table = table_of(tournament, label)
    names = list(table.match.seats.order_by("seat").values_list("player__name", flat=True))
    places = [1 if name == winner else 2 for name in names]
    return services.table_result(
        table=table, by=organizer, expected_version=table.match.result_version, places=places, **options
    )


@pytest.fixture
def eight(make_tournament, organizer):
    tournament, _ = make_tournament(8, format="single_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    return tournament


def test_a_semi_final_starts_while_the_other_quarter_final_is_still_played(eight, organizer):
    tournament = eight
    win(tournament, organizer, "R1-1", "Ada")
    assert len(board(tournament)) == 4  # R2-1 waits for R1-2
    win(tournament, organizer, "R1-2", "Dov")
    assert board(tournament) == [
        (1, "published", 1, "R1-1", ["Ada", "Hal"], ""),
        (1, "published", 2, "R1-2", ["Dov", "Eli"], ""),
        (1, "published", 3, "R1-3", ["Bea", "Gus"], ""),
        (1, "published", 4, "R1-4", ["Cal", "Fay"], ""),
        (2, "published", 1, "R2-1", ["Ada", "Dov"], ""),
    ]
    win(tournament, organizer, "R2-1", "Dov")  # the semi-final is played before R1-3 and R1-4
    win(tournament, organizer, "R1-4", "Fay")
    win(tournament, organizer, "R1-3", "Bea")
    assert [row[:4] for row in board(tournament)][4:] == [
        (2, "published", 1, "R2-1"),
        (2, "published", 2, "R2-2"),
    ]
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.COMPLETE
    with pytest.raises(UserError, match="^the bracket opens each match as soon as its players are known"):
        services.round_generate(tournament=tournament, by=organizer)
    with pytest.raises(UserError, match="^round 2 is a bracket round: it completes by itself"):
        services.round_complete(round_row=Round.objects.get(tournament=tournament, number=2), by=organizer)
    win(tournament, organizer, "R2-2", "Fay")
    assert board(tournament)[-1] == (3, "published", 1, "F", ["Dov", "Fay"], "")
    win(tournament, organizer, "F", "Fay")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert list(tournament.round_set.values_list("number", "status", "final")) == [
        (1, "complete", False),
        (2, "complete", False),
        (3, "complete", True),
    ]
    assert [row.name for row in selectors.standing_rows_of(load_history(tournament))][:2] == ["Fay", "Dov"]


@pytest.mark.parametrize("seed", range(3))
def test_double_elimination_of_sixteen_played_in_any_order_of_readiness(make_tournament, organizer, seed):
    tournament, _ = make_tournament(16, format="double_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    generator = random.Random(seed)
    ahead = 0  # results entered while an earlier round still had a table waiting
    played = 0
    while tournament.status == Tournament.Status.RUNNING:
        waiting = list(
            Table.objects.filter(round__tournament=tournament, match__status=Match.Status.SCHEDULED)
            .select_related("round", "match")
            .order_by("round__number", "number")
        )
        table = generator.choice(waiting)
        ahead += table.round.number > waiting[0].round.number
        services.table_result(
            table=table, by=organizer, expected_version=0, places=generator.sample([1, 2], 2)
        )
        played += 1
        tournament.refresh_from_db()
    assert ahead > 0
    labels = list(Table.objects.filter(round__tournament=tournament).values_list("label", flat=True))
    assert played == len(labels) and len(labels) in (30, 31)  # 15 + 14 + GF, and GF2 when the reset is played
    assert set(tournament.round_set.values_list("status", flat=True)) == {"complete"}
    final = Table.objects.filter(round__tournament=tournament, label__startswith="GF").order_by(
        "-round__number"
    )[0]
    winner, loser = final.match.seats.order_by("place").values_list("player__name", flat=True)
    lines = [(row.name, row.group) for row in selectors.standing_rows_of(load_history(tournament))]
    assert lines[:2] == [(winner, "Champion"), (loser, "Final")]


RESET_F = (
    "the result of R1-1 already plays on in F (round 2, table 1): correcting who won resets F (voided, then "
    "played again with the right players); confirm the reset to correct it"
)


def test_a_correction_that_changes_who_plays_on_needs_a_reset(make_tournament, organizer, rate):
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=True)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    win(tournament, organizer, "R1-1", "Ada")
    win(tournament, organizer, "R1-2", "Bea")
    win(tournament, organizer, "F", "Ada")
    rate()
    final = table_of(tournament, "F")
    assert RatingHistory.objects.filter(match=final.match).count() == 2
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    with pytest.raises(UserError) as refused:
        win(tournament, organizer, "R1-1", "Dov", reason="Dov won on time")
    assert (refused.value.message, refused.value.field, refused.value.status) == (RESET_F, "reset", 409)
    assert table_of(tournament, "R1-1").match.result_version == 1
    win(tournament, organizer, "R1-1", "Ada", reason="same winner, checked again")  # who plays on stays
    win(tournament, organizer, "R1-1", "Dov", reason="Dov won on time", reset=True)
    assert board(tournament) == [
        (1, "complete", 1, "R1-1", ["Ada", "Dov"], ""),
        (1, "complete", 2, "R1-2", ["Bea", "Cal"], ""),
        (2, "published", 1, "F", ["Ada", "Bea"], "reset"),
        (2, "published", 2, "F", ["Bea", "Dov"], ""),
    ]
    old_final = Table.objects.get(pk=final.pk)
    assert old_final.match.status == Match.Status.VOID
    assert old_final.match.result_version == 2
    assert list(
        ResultVersion.objects.filter(match=old_final.match)
        .order_by("version")
        .values_list("version", "void", "places", "entered_by__username", "reason")
    ) == [
        (1, False, [1, 2], "organizer", ""),  # kept, never deleted
        (2, True, [], "organizer", "reset: F is played again after a correction of R1-1"),
    ]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    rate()
    assert RatingHistory.objects.filter(match=old_final.match).count() == 0  # the pool replayed without it
    with pytest.raises(
        UserError, match="^table 1 of round 2 was reset by a correction: F is played at its new table$"
    ):
        services.table_result(table=old_final, by=organizer, expected_version=1, places=[1, 2], reason="x")
    win(tournament, organizer, "F", "Dov")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert [row.name for row in selectors.standing_rows_of(load_history(tournament))][:2] == ["Dov", "Bea"]


def test_a_reset_cascades_to_the_matches_the_reset_match_fed(make_tournament, organizer):
    tournament, _ = make_tournament(4, format="double_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    for label, winner in [
        ("W1-1", "Ada"),
        ("W1-2", "Bea"),
        ("W2-1", "Ada"),
        ("L1-1", "Cal"),
        ("L2-1", "Cal"),
    ]:
        win(tournament, organizer, label, winner)
    assert [row[3] for row in board(tournament)] == ["W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF"]
    with pytest.raises(
        UserError,
        match=r"^the result of W1-1 already plays on in W2-1 \(round 2, table 1\): "
        "correcting who won resets W2-1, L1-1, L2-1 and GF ",
    ):
        win(tournament, organizer, "W1-1", "Dov", reason="scoring error")
    win(tournament, organizer, "W1-1", "Dov", reason="scoring error", reset=True)
    assert board(tournament) == [
        (1, "complete", 1, "W1-1", ["Ada", "Dov"], ""),
        (1, "complete", 2, "W1-2", ["Bea", "Cal"], ""),
        (2, "published", 1, "W2-1", ["Ada", "Bea"], "reset"),
        (2, "published", 2, "L1-1", ["Cal", "Dov"], "reset"),
        (2, "published", 3, "W2-1", ["Bea", "Dov"], ""),
        (2, "published", 4, "L1-1", ["Ada", "Cal"], ""),
        (3, "published", 1, "L2-1", ["Bea", "Cal"], "reset"),
        (4, "published", 1, "GF", ["Ada", "Cal"], "reset"),
    ]


def test_the_api_and_the_page_offer_the_reset(client, make_tournament, organizer):
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    win(tournament, organizer, "R1-1", "Ada")
    win(tournament, organizer, "R1-2", "Bea")
    first = table_of(tournament, "R1-1")
    api = APIClient()
    api.force_authenticate(organizer)
    body = {"expected_version": 1, "places": [2, 1], "reason": "Dov won"}
    refused = api.post(f"/api/tournament-tables/{first.pk}/result/", body, format="json")
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "conflict",
        "detail": RESET_F,
        "field": "reset",
        "errors": [{"field": "reset", "code": "conflict", "detail": RESET_F}],
    }
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/rounds/1/tables/1/result/"
    form = {"expected_version": 1, "place_0": 2, "place_1": 1, "reason": "Dov won"}
    page = client.post(url, form)
    assert page.status_code == 409
    content = page.content.decode()
    assert RESET_F in content
    assert (
        '<button type="submit" name="reset" value="yes">Reset the later matches and save the '
        "correction</button>" in content
    )
    assert client.post(url, {**form, "reset": "yes"}).status_code == 302
    old_final = Table.objects.get(round__tournament=tournament, label="F", closed_as=Table.Closed.RESET)
    history = api.get(f"/api/matches/{old_final.match_id}/results/").json()
    assert [
        {key: row[key] for key in ("version", "void", "places", "entered_by", "reason")} for row in history
    ] == [
        {
            "version": 1,
            "void": True,
            "places": [],
            "entered_by": "organizer",
            "reason": "reset: F is played again after a correction of R1-1",
        },
    ]
    staff_page = client.get(f"/matches/{old_final.match_id}/").content.decode()
    assert (
        '<tr><td class="num">1 <span class="badge finished">counts</span></td>'
        '<td colspan="2"><span class="badge void">void</span> no longer counts</td>' in staff_page
    )
    assert "reset: F is played again after a correction of R1-1" in staff_page
    assert [row[3:] for row in board(tournament)][2:] == [
        ("F", ["Ada", "Bea"], "reset"),
        ("F", ["Bea", "Dov"], ""),
    ]
    again = api.post(
        f"/api/tournament-tables/{first.pk}/result/",
        {**body, "expected_version": 2, "places": [1, 2], "reset": True},
        format="json",
    )
    assert again.status_code == 201
    assert [row[3:] for row in board(tournament)][3:] == [
        ("F", ["Bea", "Dov"], "reset"),
        ("F", ["Ada", "Bea"], ""),
    ]


def test_resets_and_the_brackets_own_steps_are_logged(make_tournament, organizer):
    tournament, _ = make_tournament(4, format="single_elimination", table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    since = tournament.audit_entries.count()
    win(tournament, organizer, "R1-1", "Ada")
    win(tournament, organizer, "R1-2", "Bea")
    win(tournament, organizer, "F", "Ada")
    win(tournament, organizer, "R1-1", "Dov", reason="Dov won on time", reset=True)
    rows = tournament.audit_entries.select_related("actor").order_by("id")[since:]
    assert [(row.actor.username if row.actor else None, row.action, row.details) for row in rows] == [
        (None, "round.completed", {"round": 1}),
        (None, "round.completed", {"round": 2}),
        (None, "tournament.finished", {"after_round": 2, "early": False}),
        ("organizer", "result.reset", {"round": 2, "table": 1, "label": "F"}),
        (
            "organizer",
            "result.corrected",
            {
                "round": 1,
                "table": 1,
                "label": "R1-1",
                "version": 2,
                "places": rows[4].details["places"],
                "reason": "Dov won on time",
            },
        ),
    ]
    assert sorted(rows[4].details["places"]) == [1, 2]
