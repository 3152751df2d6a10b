"""Ladders: leagues that never end, whose schedule replays from their seed and their entry log."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.core.record import canonical_json
from league.bots import matchmaking
from league.bots.models import BotDefinition, BotLeague, Fixture, LadderEvent, LeagueEntry
from league.bots.selectors import ladder_standings
from league.bots.services.definitions import bot_register, bot_revise
from league.bots.services.ladders import ladder_create, ladder_enter, ladder_leave
from league.bots.services.leagues import ladder_log, league_start, league_tick
from league.bots.services.work import work_play
from league.bots.uploads import bot_check, bot_upload
from league.core.errors import Forbidden, UserError
from league.ratings.models import Rating
from tests.league.bots.conftest import make_bots, make_league
from tests.league.bots.crafted import BOT

pytestmark = pytest.mark.django_db


def make_ladder(by, **overrides):
    settings = {
        "name": "Nacho ladder",
        "game_id": "nacho_pile",
        "table_size": 3,
        "seed": 77,
        "sittings_per_round": 2,
        "newcomer_matches": 4,
        "batch_size": 5,
        "commit_every": 2,
        "pace": BotLeague.Pace.SCHEDULED,
    }
    settings.update(overrides)
    return ladder_create(by=by, **settings)


def play_rounds(ladder, rounds):
    """Draw (the scheduled pace's tick) and play `rounds` rounds with the workers' code."""
    for _ in range(rounds):
        assert league_tick(league_id=ladder.pk)
        work_play(league_id=ladder.pk, worker="test")
    assert not Fixture.objects.filter(league=ladder, done=False).exists()


def schedule_bytes_from_the_database(ladder) -> bytes:
    rows = [
        [
            f.position,
            f.round.number,
            f.seed,
            [seat.player.bot_definition.pk for seat in f.match.seats.order_by("seat")],
        ]
        for f in Fixture.objects.filter(league=ladder).select_related("round", "match").order_by("position")
    ]
    return canonical_json(rows).encode()


def schedule_bytes_replayed(ladder) -> bytes:
    """The schedule from nothing but the ladder's settings, seed and entry log."""
    ladder.refresh_from_db()
    rounds = matchmaking.ladder_schedule(
        events=ladder_log(ladder),
        table_size=ladder.table_size,
        sittings=ladder.sittings_per_round,
        newcomer_matches=ladder.newcomer_matches,
        ladder_seed=ladder.seed,
        rounds=ladder.current_round,
        authors_apart_from=ladder.authors_apart_from,
    )
    rows = [
        [drawn.start + table.index, drawn.number, table.seed, list(table.seats)]
        for drawn in rounds
        for table in drawn.tables
    ]
    return canonical_json(rows).encode()


def seated(ladder, bot, rounds) -> int:
    return Fixture.objects.filter(
        league=ladder, round__number__in=rounds, match__seats__player=bot.player
    ).count()


def test_a_ladder_with_arrivals_departures_and_a_new_version_replays_from_its_seed_and_log(staff):
    bots = make_bots(staff)  # six Nacho Pile bots
    random_bot, careful, balanced, daring, reckless, timid = bots
    ladder = make_ladder(staff)
    for bot in (random_bot, careful, balanced, daring):
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    league_start(league_id=ladder.pk)
    work_play(league_id=ladder.pk, worker="test")  # round 1, drawn by the start
    play_rounds(ladder, 2)  # rounds 2 and 3: four bots, one table of three a sitting
    assert Fixture.objects.filter(league=ladder).count() == 6

    ladder_enter(ladder_id=ladder.pk, bot_id=reckless.pk, by=staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=timid.pk, by=staff)
    play_rounds(ladder, 2)  # rounds 4 and 5: six bots, two tables a sitting
    assert Fixture.objects.filter(league=ladder).count() == 6 + 8

    ladder_leave(ladder_id=ladder.pk, bot_id=random_bot.pk, by=staff)
    careful_v2 = bot_revise(bot=careful, by=staff, params={"caution": 2.0})
    assert careful_v2.version == 2
    play_rounds(ladder, 3)  # rounds 6 to 8: five bots, one table a sitting

    # The new version is a new player, drawn first until it has its 4 matches (every sitting of rounds 6
    # and 7); the old version and the withdrawn bot play no more.
    assert seated(ladder, careful_v2, [6]) == 2
    assert seated(ladder, careful_v2, [7]) == 2
    assert seated(ladder, careful, [6, 7, 8]) == 0
    assert seated(ladder, random_bot, [6, 7, 8]) == 0
    assert list(
        LadderEvent.objects.filter(league=ladder).values_list(
            "action", "bot__name", "bot__version", "position", "reason"
        )
    ) == [
        ("enter", "Random", 1, 0, ""),
        ("enter", "Careful", 1, 0, ""),
        ("enter", "Balanced", 1, 0, ""),
        ("enter", "Daring", 1, 0, ""),
        ("enter", "Reckless", 1, 6, ""),
        ("enter", "Timid", 1, 6, ""),
        ("leave", "Random", 1, 14, "withdrawn"),
        ("leave", "Careful", 1, 14, "replaced by Careful v2"),
        ("enter", "Careful", 2, 14, ""),
    ]

    # The whole schedule, replayed from the seed and the log alone, is the very same, byte for byte.
    stored = schedule_bytes_from_the_database(ladder)
    assert len(stored) > 500
    assert schedule_bytes_replayed(ladder) == stored

    # Standings: current entries ranked by rating, with their matches; retired versions apart, history kept.
    standings = ladder_standings(ladder)
    assert sorted(row.bot.label for row in standings.current) == [
        "Balanced",
        "Careful v2",
        "Daring",
        "Reckless",
        "Timid",
    ]
    assert [row.bot.label for row in standings.retired] == ["Careful", "Random"]
    played = {row.bot.label: row.matches for row in standings.current + standings.retired}
    assert played["Careful v2"] == 4 + seated(ladder, careful_v2, [8])
    assert played["Careful"] == seated(ladder, careful, range(1, 6))
    assert sum(played.values()) == 3 * Fixture.objects.filter(league=ladder).count()
    ratings = [row.conservative for row in standings.current]
    assert ratings == sorted(ratings, reverse=True)
    assert (
        Rating.objects.filter(pool=ladder.rating_pool, player=careful_v2.player).get().matches
        == played["Careful v2"]
    )


def test_a_ladder_without_enough_bots_waits_and_never_finishes(staff):
    bots = make_bots(staff)
    ladder = make_ladder(staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=bots[0].pk, by=staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=bots[1].pk, by=staff)
    league_start(league_id=ladder.pk)
    assert not league_tick(league_id=ladder.pk)
    assert Fixture.objects.filter(league=ladder).count() == 0
    ladder_enter(ladder_id=ladder.pk, bot_id=bots[2].pk, by=staff)
    play_rounds(ladder, 5)
    ladder.refresh_from_db()
    assert (ladder.status, ladder.current_round) == ("running", 5)


def test_the_same_seed_and_log_give_the_same_ladder(staff):
    bots = make_bots(staff)
    schedules = []
    for name in ("First", "Second"):
        ladder = make_ladder(staff, name=name)
        for bot in bots[:4]:
            ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
        league_start(league_id=ladder.pk)
        work_play(league_id=ladder.pk, worker="test")
        play_rounds(ladder, 2)
        schedules.append(schedule_bytes_replayed(ladder))
        schedules.append(
            [
                f.match.record_json()["outcome"]
                for f in Fixture.objects.filter(league=ladder).select_related("match").order_by("position")
            ]
        )
    assert schedules[0] == schedules[2]
    assert schedules[1] == schedules[3]


def test_only_the_owner_or_staff_enter_a_bot_and_bad_entries_are_refused(staff, member):
    bots = make_bots(staff)
    mine = bot_register(name="Mine", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    mine.created_by = member
    mine.save()
    ladder = make_ladder(staff)
    with pytest.raises(Forbidden, match="only the owner of Random"):
        ladder_enter(ladder_id=ladder.pk, bot_id=bots[0].pk, by=member)
    ladder_enter(ladder_id=ladder.pk, bot_id=mine.pk, by=member)
    with pytest.raises(UserError, match="has entered this ladder already"):
        ladder_enter(ladder_id=ladder.pk, bot_id=mine.pk, by=member)
    chickens = make_bots(staff, (("Hen", "random", {}),), game_id="chicken_foot")[0]
    with pytest.raises(UserError, match="plays another game"):
        ladder_enter(ladder_id=ladder.pk, bot_id=chickens.pk, by=staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=bots[1].pk, by=staff)
    league_start(league_id=ladder.pk)
    bots[1].refresh_from_db()
    v2 = bot_revise(bot=bots[1], by=staff, params={"caution": 1.1})
    assert v2.version == 1  # never played: changed in place, no new version
    with pytest.raises(Forbidden):
        ladder_leave(ladder_id=ladder.pk, bot_id=bots[1].pk, by=member)
    with pytest.raises(Forbidden, match="only staff create ladders"):
        make_ladder(member, name="Members' ladder")
    assert LeagueEntry.objects.filter(league=ladder).count() == 2


def checked_upload(**upload) -> BotDefinition:
    """An upload whose check (a worker's task after the commit) has passed."""
    bot = bot_upload(**upload)
    assert bot_check(bot_id=bot.pk) == "ready"
    bot.refresh_from_db()
    return bot


def test_one_authors_uploaded_programs_never_share_a_table_and_the_schedule_still_replays(staff, member):
    from_member = [
        checked_upload(by=member, game_id="nacho_pile", name=name, data=BOT) for name in ("A1", "A2", "A3")
    ]
    other = get_user_model().objects.create_user("other", password="pw-other-12345")
    from_other = checked_upload(by=other, game_id="nacho_pile", name="O1", data=BOT)
    builtins = make_bots(staff)[:3]
    ladder = make_ladder(staff, table_size=3, sittings_per_round=3, newcomer_matches=0)
    for bot in from_member:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=member)
    ladder_enter(ladder_id=ladder.pk, bot_id=from_other.pk, by=other)
    for bot in builtins:
        ladder_enter(ladder_id=ladder.pk, bot_id=bot.pk, by=staff)
    assert list(LadderEvent.objects.filter(league=ladder).values_list("bot__name", "author")) == [
        ("A1", member.pk),
        ("A2", member.pk),
        ("A3", member.pk),
        ("O1", other.pk),
        ("Random", None),
        ("Careful", None),
        ("Balanced", None),
    ]
    league_start(league_id=ladder.pk)

    # Seven bots, tables of three: two tables a sitting, so two of the member's three programs play (one at
    # each table) and the third sits it out; the other author's program and the built-ins play every sitting.
    fixtures = list(Fixture.objects.filter(league=ladder).order_by("position"))
    assert len(fixtures) == 6
    member_ids = {bot.player_id for bot in from_member}
    for fixture in fixtures:
        players = set(fixture.match.seats.values_list("player_id", flat=True))
        assert len(players & member_ids) == 1
    for sitting in range(3):
        seated = {
            player_id
            for fixture in fixtures[2 * sitting : 2 * sitting + 2]
            for player_id in fixture.match.seats.values_list("player_id", flat=True)
        }
        assert len(seated & member_ids) == 2
        assert {from_other.player_id, *(bot.player_id for bot in builtins)} <= seated
    assert schedule_bytes_replayed(ladder) == schedule_bytes_from_the_database(ladder)

    page = Client().get(reverse("bots:ladder", args=[ladder.pk])).content.decode()
    assert (
        "<bdi>A1</bdi>, <bdi>A2</bdi> and <bdi>A3</bdi>\nare uploaded by one author: they never sit at one"
        " table. When a sitting has fewer "
        "tables than they are, the extra ones sit it out." in page
    )
    assert "O1" not in page.split("are uploaded by one author")[0].rsplit("</table>", 1)[1]


def test_a_league_whose_bots_cannot_fill_a_table_without_two_programs_of_one_author_is_refused(staff, member):
    programs = [checked_upload(by=member, game_id="nacho_pile", name=name, data=BOT) for name in ("A1", "A2")]
    builtin = make_bots(staff)[0]
    with pytest.raises(UserError) as refused:
        make_league(staff, [*programs, builtin], table_size=3)
    assert refused.value.message == (
        "these bots cannot fill a table of 3 without two uploaded programs of one author (they never share a "
        "table): add other authors' bots or built-in ones"
    )
    league = make_league(staff, [*programs, builtin], table_size=2)
    assert league.entries.count() == 3


def test_a_fast_ladder_waiting_for_members_draws_its_round_when_one_enters(
    staff, django_capture_on_commit_callbacks
):
    bots = make_bots(staff)
    ladder = make_ladder(staff, pace=BotLeague.Pace.FAST)
    ladder_enter(ladder_id=ladder.pk, bot_id=bots[0].pk, by=staff)
    ladder_enter(ladder_id=ladder.pk, bot_id=bots[1].pk, by=staff)
    league_start(league_id=ladder.pk)
    assert Fixture.objects.filter(league=ladder).count() == 0  # two bots, tables of 3: it waits
    with django_capture_on_commit_callbacks(execute=True):
        ladder_enter(ladder_id=ladder.pk, bot_id=bots[2].pk, by=staff)
    ladder.refresh_from_db()
    assert ladder.current_round == 1
    assert Fixture.objects.filter(league=ladder, done=False).count() > 0  # the round waits for a worker
