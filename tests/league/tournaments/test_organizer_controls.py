"""The organizer's controls on the pages: the next round from the completed one, confirmations before actions
that cannot be undone, closing a table in words, the standings footnote."""

from league.tournaments import services
from league.tournaments.models import Registration, Tournament


def test_a_completed_round_offers_to_generate_the_next(client, make_tournament, organizer, play_round):
    tournament, _ = make_tournament(4, table_size=2, rated=False)
    client.force_login(organizer)
    round_row = play_round(tournament, complete=False)
    base = f"/tournaments/{tournament.slug}"
    answer = client.post(f"{base}/rounds/1/complete/", follow=True)
    page = answer.content.decode()
    assert "Round 1 complete." in page
    assert f'<form method="post" action="{base}/generate/">' in page
    assert "<button>Generate round 2</button>" in page
    generated = client.post(f"{base}/generate/")
    assert generated["Location"] == f"{base}/rounds/2/"
    assert "Generate round 3" not in client.get(f"{base}/rounds/1/").content.decode()
    assert round_row.tournament.round_set.count() == 2


def test_finishing_asks_for_a_confirmation_first(client, make_tournament, organizer, play_round):
    tournament, _ = make_tournament(4, table_size=2, rated=False)
    play_round(tournament)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/finish/"
    asked = client.post(url)
    page = asked.content.decode()
    assert asked.status_code == 200
    assert '<h1 id="question">Finish Spring Open now?</h1>' in page
    assert '<input type="hidden" name="confirm" value="yes">' in page
    assert '<button type="submit">Yes, finish the tournament</button>' in page
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_drop_no_show_and_withdraw_ask_for_a_confirmation(
    client, make_tournament, organizer, players_by_name
):
    tournament, _ = make_tournament(4, table_size=2, rated=False)
    client.force_login(organizer)
    url = f"/tournaments/{tournament.slug}/leave/"
    dov, cal = players_by_name["Dov"].pk, players_by_name["Cal"].pk
    for player, status, question, button in [
        (dov, "dropped", "Drop Dov from Spring Open?", "Yes, drop Dov"),
        (cal, "no_show", "Mark Cal as a no-show in Spring Open?", "Yes, mark Cal as a no-show"),
    ]:
        page = client.post(url, {"player": player, "status": status}).content.decode()
        assert f'<h1 id="question">{question}</h1>' in page
        assert f'<button type="submit">{button}</button>' in page
        assert f'<input type="hidden" name="player" value="{player}">' in page
        assert f'<input type="hidden" name="status" value="{status}">' in page
        assert Registration.objects.get(tournament=tournament, player_id=player).status == "active"
        assert client.post(url, {"player": player, "status": status, "confirm": "yes"}).status_code == 302
        assert Registration.objects.get(tournament=tournament, player_id=player).status == status
    before, _ = make_tournament(4, name="Later", start=False)
    page = client.post(
        f"/tournaments/{before.slug}/leave/", {"player": dov, "status": "withdrawn"}
    ).content.decode()
    assert '<h1 id="question">Withdraw Dov from Later?</h1>' in page
    assert Registration.objects.get(tournament=before, player_id=dov).status == "active"


def test_closing_a_table_as_a_no_show_says_so(client, make_tournament, organizer, players_by_name):
    tournament, _ = make_tournament(4, table_size=2, rated=False)
    services.round_publish(
        round_row=services.round_generate(tournament=tournament, by=organizer), by=organizer
    )
    client.force_login(organizer)
    base = f"/tournaments/{tournament.slug}/rounds/1"
    answer = client.post(
        f"{base}/tables/1/close/", {"kind": "no_show", "absent": [players_by_name["Cal"].pk]}, follow=True
    )
    page = answer.content.decode()
    assert "Table 1 closed as no-show." in page
    assert '<span class="badge void">No-show</span>' in page
    assert "noshow" not in page and "closed as played" not in page
    path = client.get(f"/tournaments/{tournament.slug}/players/ada/").content.decode()
    assert "table closed (no-show)" in path


def test_the_standings_footnote_names_seed_once(client, make_tournament, play_round):
    tournament, _ = make_tournament(4, table_size=2, rated=False)
    play_round(tournament)
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "Ordered by points, opponents&#x27; points, wins, head to head, then seed." in page
    assert "seed, then seed" not in page
