"""A 64-player event run through the pages as an organizer would: a 4-seat Swiss of 4 rounds, then a top cut
of 16 at 4-seat tables where the top 2 of each table go through. Every table finishes by the rule "the lower
seed number places better", so the expected pairings and standings below are worked out by hand from the
rule and the pairing rules of docs/tournaments.md, never computed by the code under test.

Players are called P01..P64 after their seed (the batch registers them in that order, and unrated players
are seeded in the order they registered).

Worked out by hand (seed - 1 = 16q + 4r + s, q, r, s in 0..3):

- Round 1: everyone on 0 points, one score group: the fold gives table j the group's j-th, (j+16)-th,
  (j+32)-th and (j+48)-th players, so table j = (j, j+16, j+32, j+48), seated in ranking order. Places by
  seed: the q-th of each table scores 3 - q.
- Round 2: four score groups of 16 (seeds 1-16 on 3, 17-32 on 2, ...). Within a group everyone has the same
  opponents' points and wins, and nobody has met: the group ranks by seed and its four tables are
  (16q + s + 1, +4, +8, +12) for s = 0..3. All four at a table sat in the same seat in round 1, so every
  seating repeats one seat: the seats follow the ranking. After round 2 a player has 6 - q - r points.
- Round 3: seven score groups of 4, 8, 12, 16, 12, 8, 4 players, so no player floats. Within a group (q + r
  fixed) everyone's opponents' points are 12 + 2 x points (sum over the two tables met) and nobody has met,
  so the group ranks by wins (a first place in round 1 when q = 0, in round 2 when r = 0), then seed. The fold
  of each group needs no rematch fix, and no other arrangement balances seats better (a player has sat in
  seats q and r; e.g. the 12-player group on 4 points has 8 players from seats {0, 2} and 4 from seat 1
  twice: the fold's 1 + 1 + 2 split of the latter costs 2 extra seat uses, the least possible), so the
  fold stands: see ROUND_3 below, and the points after it in POINTS_AFTER_3.
- Round 4 and the cut re-pair across score groups with rematches to avoid (in the cut, the Swiss meetings
  count too) and seats to balance, and the optimiser's search picks among arrangements: too involved to follow
  by hand, so the test reads those tables from the pages and asserts what the rule and the ranking rule of
  docs/tournaments.md decide from them: P01 wins every table (12 Swiss points, first); the cut is the Swiss
  top 16; the two best seeds of each cut table go through; the final standings are the final table by seed
  (P01 champion, P02 second: P02 loses only to P01, so always goes through), then round 6's third places above
  its fourth places, then round 5's (as sets: the tie-breaks order each, and they depend on round 4), then
  everyone else in the Swiss order, P64 last: P64 dropped after round 3 on 0 points, and everyone else has at
  least 1 by then.

The requested bye: after round 3, the organizer asks for a bye in round 4 for P63 (1 point, second last) from
the page's "Byes and breaks" panel; the tournament scores a requested bye as half a win, i.e. half of first
place at the preferred size of 4: 1.5. Round 4 then seats 62 players (P64 dropped, P63 away): tables of 4 with
the short leftovers rule (the default) make 14 tables of 4 and 2 of 3 (62 = 14 x 4 + 2 x 3), P63 is listed
under "Bye asked for" on round 4's page, and P63 ends the Swiss on 1 + 1.5 = 2.5. Scaled points are on (the
default for pod tables), so a table of 3 scores 3, 1.5, 0: P01 still has 12 after winning wherever it sits.

The correction: round 2, table 5 (P17, P21, P25, P29) is first entered the wrong way round, the round is
completed, and then the organizer corrects it on the result page before generating round 3. Round 3's
pairings and the points after it are the rule's, which they would not be if the first entry still counted.
"""

import pytest

from league.tournaments import services
from league.tournaments.models import Registration, Round, Tournament
from tests.e2e.test_tournament import log_in
from tests.factories import StaffFactory

NAMES = [f"P{seed:02d}" for seed in range(1, 65)]

ROUND_1 = [[j, j + 16, j + 32, j + 48] for j in range(1, 17)]  # seat order
ROUND_2 = [[16 * q + s + 1 + 4 * r for r in range(4)] for q in range(4) for s in range(4)]  # seat order
ROUND_3 = [  # players of each table, by seed, in table order
    [1, 2, 3, 4],
    [5, 7, 17, 19],
    [6, 8, 18, 20],
    [9, 12, 22, 35],
    [10, 23, 33, 36],
    [11, 21, 24, 34],
    [13, 25, 37, 49],
    [14, 26, 38, 50],
    [15, 27, 39, 51],
    [16, 28, 40, 52],
    [29, 32, 43, 54],
    [30, 41, 44, 55],
    [31, 42, 53, 56],
    [45, 47, 57, 59],
    [46, 48, 58, 60],
    [61, 62, 63, 64],
]
POINTS_AFTER_3 = {
    9: [1],
    8: [2, 5, 6],
    7: [3, 7, 8, 9, 10, 11],
    6: [4, 12, 13, 14, 15, 16, 17, 18, 21, 23],
    5: [19, 20, 22, 24, 25, 26, 27, 28, 29, 30, 31, 33],
    4: [32, 34, 35, 36, 37, 38, 39, 40, 41, 42, 45, 46],
    3: [43, 44, 47, 48, 49, 50, 51, 52, 53, 61],
    2: [54, 55, 56, 57, 58, 62],
    1: [59, 60, 63],
    0: [64],
}
CORRECTED = (2, 5)  # round 2, table 5


def seed(name: str) -> int:
    return int(name[1:3])


def seats_here(page) -> list[str]:
    """The players of the result page's table, in seat order."""
    return [row.split("\t")[1] for row in page.locator("#result-form tbody tr").all_inner_texts()]


def fill_places(page, names: list[str], *, reverse: bool = False) -> None:
    """Places by seed (lower seed number better), or the wrong way round with `reverse`."""
    order = sorted(names, key=seed, reverse=reverse)
    for index, name in enumerate(names):
        page.fill(f"#id_place_{index}", str(order.index(name) + 1))


def play_round(page, base: str, number: int, *, wrong_table: int | None = None) -> list[list[str]]:
    """Generate, publish and score round `number` from its pages, table after table with Enter; complete it.
    The players of each table in seat order."""
    page.goto(f"{base}/")
    page.get_by_role("button", name=f"Generate round {number}").click()
    assert page.inner_text("#round-status") == "Draft"
    page.get_by_role("button", name=f"Publish round {number}").click()
    assert page.inner_text("#round-status") == "Published"
    page.get_by_role("link", name="Enter results (table 1)").click()
    tables = []
    while "/result/" in page.url:
        assert page.inner_text("h1").startswith(f"Round {number}, table {len(tables) + 1}")
        names = seats_here(page)
        tables.append(names)
        fill_places(page, names, reverse=len(tables) == wrong_table)
        with page.expect_navigation():
            page.press(f"#id_place_{len(names) - 1}", "Enter")
    page.get_by_role("button", name=f"Complete round {number}").click()
    assert page.inner_text("#round-status") == "Complete"
    return tables


def players(tables: list[list[str]]) -> set[str]:
    return {name for names in tables for name in names}


def by_seed(tables: list[list[str]]) -> list[list[int]]:
    return [sorted(seed(name) for name in names) for names in tables]


def standings_rows(page) -> list[list[str]]:
    return [row.split("\t") for row in page.locator("#standings tbody tr:not(.group)").all_inner_texts()]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_64_player_swiss_and_a_top_16_cut_at_4_seat_tables_follow_the_seeds(live_server, browser):
    organizer = StaffFactory(username="organizer")
    # setup through the services: the settings; the players are registered by batch on the page
    tournament = services.tournament_create(
        created_by=organizer,
        name="Big Pods",
        game_id="nacho_pile",
        format="stages",
        first_stage="swiss",
        rounds=4,
        cut_size=16,
        cut_format="single_elimination",
        table_size=4,
        advance=2,
        rated=False,
        requested_bye_score="half",
    )
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    base = f"{live_server.url}/tournaments/{tournament.slug}"
    log_in(page, live_server.url, "organizer", f"/tournaments/{tournament.slug}/")
    page.set_default_timeout(120_000)
    page.get_by_role("button", name="Open registration").click()
    page.fill("#id_names", "\n".join(NAMES))
    page.get_by_role("button", name="Register", exact=True).click()
    page.get_by_role("button", name="Yes, register all 64, creating the new players").click()
    assert page.inner_text(".messages") == "Registered 64 players (64 new)."
    page.get_by_role("button", name="Start the tournament").click()
    seeds = dict(Registration.objects.values_list("player__name", "seed"))
    assert all(seeds[name] == seed(name) for name in NAMES)

    round_1 = play_round(page, base, 1)
    assert [[seed(name) for name in names] for names in round_1] == ROUND_1
    round_2 = play_round(page, base, 2, wrong_table=CORRECTED[1])
    assert [[seed(name) for name in names] for names in round_2] == ROUND_2

    # the correction: table 5 of round 2 was entered the wrong way round; put it right before round 3
    page.goto(f"{base}/rounds/2/tables/5/result/")
    assert seats_here(page) == ["P17", "P21", "P25", "P29"]
    assert [page.input_value(f"#id_place_{index}") for index in range(4)] == ["4", "3", "2", "1"]
    fill_places(page, seats_here(page))
    page.fill("#id_reason", "places entered the wrong way round")
    with page.expect_navigation():
        page.press("#id_place_3", "Enter")
    page.goto(f"{base}/rounds/2/")
    corrected = page.locator("#table-5 li").all_inner_texts()
    assert corrected == ["P17\n1st · 3 pt", "P21\n2nd · 2 pt", "P25\n3rd · 1 pt", "P29\n4th · 0 pt"]

    round_3 = play_round(page, base, 3)
    assert by_seed(round_3) == ROUND_3
    page.goto(f"{base}/")
    points = {row[1]: row[2] for row in standings_rows(page)}
    assert points == {
        f"P{player:02d}": str(value) for value, players in POINTS_AFTER_3.items() for player in players
    }

    # P64 (0 points, last) drops before round 4 is drawn
    page.locator("#players tr", has_text="P64").get_by_role("button", name="Drop").click()
    assert page.inner_text("#question") == "Drop P64 from Big Pods?"
    page.locator("#confirm button").click()
    assert Registration.objects.get(player__name="P64").status == Registration.Status.DROPPED

    # P63 (1 point) asks for a bye in round 4; the organizer asks for them from the panel
    tournament.refresh_from_db()
    assert tournament.scale_points is True
    assert tournament.leftovers == Tournament.Leftovers.SHORT
    page.goto(f"{base}/")
    form = page.locator("#bye-form")
    form.locator("select[name=player]").select_option(label="P63")
    form.locator("select[name=round]").select_option("4")
    form.locator("select[name=kind]").select_option("bye")
    form.get_by_role("button", name="Ask").click()
    assert page.inner_text(".messages") == "P63 has a bye in round 4."
    assert page.locator("#bye-requests li").all_inner_texts() == ["Round 4: P63 · bye Take back"]

    round_4 = play_round(page, base, 4)
    # 62 players: 14 tables of 4 and 2 of 3 (short leftovers)
    assert sorted(len(names) for names in round_4) == [3] * 2 + [4] * 14
    assert len(players(round_4)) == 62
    assert {"P63", "P64"}.isdisjoint(players(round_4))
    page.goto(f"{base}/rounds/4/")
    assert page.inner_text("#requested-byes") == "Bye asked for (scores half a win): P63"
    page.goto(f"{base}/")
    swiss = [row[1] for row in standings_rows(page)]
    points = {row[1]: row[2] for row in standings_rows(page)}
    assert points["P63"] == "2.5"  # 1 after round 3, plus half a win (1.5)
    assert standings_rows(page)[0][1:3] == ["P01", "12"]  # four wins
    assert swiss[-1] == "P64 (dropped)"

    cut = [play_round(page, base, number) for number in (5, 6, 7)]
    assert [len(tables) for tables in cut] == [4, 2, 1]
    assert players(cut[0]) == set(swiss[:16])  # the Swiss top 16
    # by the rule the two best seeds of each table go through
    assert players(cut[1]) == {name for names in cut[0] for name in sorted(names, key=seed)[:2]}
    assert players(cut[2]) == {name for names in cut[1] for name in sorted(names, key=seed)[:2]}
    page.goto(f"{base}/")
    assert page.inner_text("#status") == "Finished"
    assert page.locator("#standings tr.group th").all_inner_texts() == [
        "Final table, by place",
        "Out in round 6, by place at the table",
        "Out in round 5, by place at the table",
        "Did not make the cut: by the Swiss standings",
    ]
    final = [row[1] for row in standings_rows(page)]
    # the final table by place, i.e. by seed; P01 never loses, P02 loses only to P01
    assert final[:4] == sorted(cut[2][0], key=seed)
    assert final[:2] == ["P01", "P02"]
    # then each earlier cut round, later first, third places above fourth places (the tie-breaks order each)
    for first, (number, tables) in zip((4, 8), ((6, cut[1]), (5, cut[0])), strict=True):
        count = len(tables)
        assert set(final[first : first + count]) == {sorted(names, key=seed)[2] for names in tables}, number
        assert set(final[first + count : first + 2 * count]) == {
            sorted(names, key=seed)[3] for names in tables
        }
    # then everyone else in their Swiss order, P64 last
    assert final[16:] == swiss[16:]
    assert Round.objects.filter(tournament=tournament).count() == 7
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    context.close()
