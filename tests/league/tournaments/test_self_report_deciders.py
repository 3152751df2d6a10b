"""At a tie across an elimination table's cut, the reporter says who goes through, and every summary of the
report (the reporter's message, the table page, the confirm question, the organizers' round page) names
them: nobody confirms their own elimination without seeing it."""

from league.players.models import Player
from league.results.models import ResultReport
from league.tournaments import services
from tests.factories import tournaments as helpers
from tests.league.tournaments.test_self_report import with_accounts
from tests.league.tournaments.test_self_report_pages import post, signed_in, text


def test_every_summary_of_a_tied_cut_names_who_goes_through(organizer):
    tournament, players = helpers.make_tournament(
        organizer,
        8,
        format="single_elimination",
        table_size=4,
        advance=2,
        result_reporting="self_report",
        game_id="nacho_pile",
    )
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    table = round_row.tables.get(number=1)
    seated = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    # The two who share 2nd place, named in two scripts as at the event.
    Player.objects.filter(pk=seated[1]).update(name="李雷")
    Player.objects.filter(pk=seated[2]).update(name="محمد")
    users = with_accounts(Player.objects.filter(pk__in=seated))
    names = {pid: Player.objects.get(pk=pid).name for pid in seated}
    first, lei, muhammad, fourth = (names[pid] for pid in seated)
    base = f"/tournaments/{tournament.slug}/rounds/1/tables/1/"

    reporter = signed_in(users[first])
    report_form = {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 2, "place_3": 4}
    response = post(reporter, base + "report/", {**report_form, "advancing": [seated[0], seated[1]]})
    assert response.status_code == 302
    summary = f"1st {first}, 2nd 李雷, 2nd محمد, 4th {fourth}; {first} and 李雷 go through"
    page = text(reporter.get(base))
    assert (
        "Result reported: it counts once the others at the table confirm it. "
        f"{first} and 李雷 go through." in page
    )
    assert f"{first} reported: {summary}." in page

    confirmer = signed_in(users["محمد"])
    page = text(confirmer.get(base))
    assert f"Is this the result, and {first} and 李雷 go through?" in page
    assert f"{first} reported {summary}." in page
    assert f"Confirming agrees that {first} and 李雷 go through." in page

    organizer_page = text(signed_in(organizer).get(f"/tournaments/{tournament.slug}/rounds/1/"))
    assert f"Table 1 : {first} reported {summary}; waiting for" in organizer_page

    report = ResultReport.objects.get()
    assert post(confirmer, base + "confirm/", {"report": report.pk}).status_code == 302
    assert f"Confirmed. {first} and 李雷 go through." in text(confirmer.get(base))


def test_a_report_the_places_decide_names_nobody_going_through(organizer):
    tournament, players = helpers.make_tournament(
        organizer, 4, table_size=4, result_reporting="self_report", game_id="nacho_pile"
    )
    users = with_accounts(players)
    round_row = services.round_generate(tournament=tournament, by=organizer)
    services.round_publish(round_row=round_row, by=organizer)
    seated = list(round_row.tables.get().match.seats.order_by("seat").values_list("player__name", flat=True))
    base = f"/tournaments/{tournament.slug}/rounds/1/tables/1/"
    reporter = signed_in(users[seated[0]])
    report_form = {"expected_version": 0, "place_0": 1, "place_1": 2, "place_2": 2, "place_3": 4}
    assert post(reporter, base + "report/", report_form).status_code == 302
    page = text(signed_in(users[seated[1]]).get(base))
    assert "Is this the result?" in page
    assert f"reported 1st {seated[0]}, 2nd {seated[1]}, 2nd {seated[2]}, 4th {seated[3]}." in page
    assert "go through" not in page and "goes through" not in page
