"""Bot-league matchmaking: draws one round of tables from plain data. Pure: no database, no clock.

A league is a function of its seed and its bots: round r is drawn only once round r−1 is fully rated, from
the ratings and counts that rating left, and from a generator seeded by (league seed, round). The rules, in
priority order:

1. **Rounds are made of sittings.** A round holds `sittings` sittings; in each sitting every bot plays at
   most one match, at tables of exactly `table_size` seats. Several sittings per round let the workers play
   many matches between two ratings barriers; one sitting gives the finest matchmaking.
2. **Fewest matches first.** When the bots do not fill whole tables, the bots with the fewest matches so far
   (counting the sittings already drawn in this round) play; ties are broken by the round's generator.
3. **Similar ratings together.** The players of a sitting are ordered by a draw from their rating belief,
   mu + z·sigma with z ~ N(0, 1), and cut into consecutive tables. Bots whose ratings are still uncertain
   therefore meet a wide range of opponents; as sigma shrinks, tables gather bots of similar strength.
4. **Every seat used evenly.** Within a table, bots are given seats by an exact assignment that minimises the
   sum, over the table's bots, of how often each has already sat in the seat it gets (then the squares of
   those counts, then the generator's order): each bot's seat counts stay as even as the schedule allows.
   With the `informative` strategy (a league setting) the tables are instead built to learn the rating
   order fast: the bot with the widest σ not yet seated (ties: the generator) opens a table and the bots
   whose μ are closest to its own fill it. Close μ make the outcome most uncertain, so each result moves the
   beliefs most, and the least-known bots are placed first (`bench/matchmaking_info.py` measures it).
5. **Seeds.** Each match's seed is derived from (league seed, round, index in the round) by SHA-256, so it is
   the same on every machine and never depends on which worker plays it.

Above all of these, in leagues and ladders alike: **one author's uploaded programs never share a table**
(`BotStanding.author`; built-in strategies and staff's registered commands have none). Two programs of one
author at one table could cooperate (signal each other by CPU or cache timing, which no sandbox stops, and
play for one of them); apart, each plays only for itself. A sitting of T tables seats at most T bots of one
author: the others of that author sit it out, and the next in priority order take their places (T shrinks
when even that leaves too few bots). The tables are then cut as above; when a cut puts two bots of one author
together, the sitting's players are dealt again in the same order into tables, each taking the first player
whose author is not already there (`keep_authors_apart`). Neither step draws from the generator, so a draw
without such a pair is exactly what it was without the rule.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class BotStanding:
    """What matchmaking knows of one bot before a round: its rating belief, matches, and seat counts."""

    bot_id: int
    mu: float
    sigma: float
    matches: int = 0
    seat_counts: tuple[int, ...] = ()
    author: int | None = None  # the author of an uploaded program: none of theirs shares its table


@dataclass(frozen=True)
class MatchmadeTable:
    """One match of a round: the bots by seat (seat 0 first) and the match's seed."""

    index: int
    sitting: int
    seats: tuple[int, ...]
    seed: int


@dataclass
class _Tally:
    matches: int
    seat_counts: list[int] = field(default_factory=list)


def match_seed(league_seed: int, round_number: int, index: int) -> int:
    """The seed of a league match: 63 bits of SHA-256 over (league seed, round, index)."""
    digest = hashlib.sha256(f"bot-league:{league_seed}:{round_number}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seated_within_rule(
    ordered: Sequence[int], authors: Mapping[int, int | None], table_size: int, tables: int
) -> list[int]:
    """The first players of `ordered` (priority order) for a sitting of up to `tables` tables in which no two
    bots of one author share a table: at most as many bots of one author as there are tables, the most
    tables that can be filled so, and exactly that many tables' worth of players, in priority order."""
    for count in range(tables, 0, -1):
        taken: dict[int, int] = {}
        chosen = []
        for bot_id in ordered:
            author = authors.get(bot_id)
            if author is not None:
                if taken.get(author, 0) >= count:
                    continue
                taken[author] = taken.get(author, 0) + 1
            chosen.append(bot_id)
            if len(chosen) == count * table_size:
                return chosen
    return []


def keep_authors_apart(groups: Sequence[Sequence[int]], authors: Mapping[int, int | None]) -> list[list[int]]:
    """`groups` unchanged when no table holds two bots of one author; else their players, in the groups'
    order, dealt again table by table: an author with as many bots left as tables left places one now, then
    each seat takes the first player left whose author is not at the table yet. Needs at most as many bots
    of one author as there are tables (`seated_within_rule`)."""

    def clash(group: Sequence[int]) -> bool:
        seen = [authors.get(bot_id) for bot_id in group if authors.get(bot_id) is not None]
        return len(seen) != len(set(seen))

    if not any(clash(group) for group in groups):
        return [list(group) for group in groups]
    size = len(groups[0])
    left = [bot_id for group in groups for bot_id in group]
    dealt = []
    for table in range(len(groups)):
        tables_left = len(groups) - table
        counts: dict[int, int] = {}
        for bot_id in left:
            if (author := authors.get(bot_id)) is not None:
                counts[author] = counts.get(author, 0) + 1
        forced = {author for author, count in counts.items() if count >= tables_left}
        group: list[int] = []
        for wanted in (forced, None):
            for bot_id in list(left):
                author = authors.get(bot_id)
                if len(group) == size or (wanted is not None and author not in wanted):
                    continue
                if author is not None and author in {authors.get(seated) for seated in group}:
                    continue
                group.append(bot_id)
                left.remove(bot_id)
        if len(group) != size:
            raise ValueError("more bots of one author than tables in a sitting")
        dealt.append(group)
    return dealt


def draw_round(
    *,
    standings: Sequence[BotStanding],
    table_size: int,
    sittings: int,
    league_seed: int,
    round_number: int,
    strategy: str = "similar",
) -> list[MatchmadeTable]:
    """The tables of one round, in schedule order (sitting by sitting, table by table).

    Raises ValueError when there are fewer bots than seats at one table.
    """
    if table_size < 2:
        raise ValueError("a table needs at least two seats")
    if len(standings) < table_size:
        raise ValueError(f"{len(standings)} bots cannot fill a table of {table_size}")
    if sittings < 1:
        raise ValueError("a round needs at least one sitting")
    rng = random.Random(f"bot-league-round:{league_seed}:{round_number}")
    by_id = {standing.bot_id: standing for standing in sorted(standings, key=lambda s: s.bot_id)}
    tallies = {bot_id: _Tally(s.matches, _padded(s.seat_counts, table_size)) for bot_id, s in by_id.items()}
    authors = {bot_id: standing.author for bot_id, standing in by_id.items()}
    tables: list[MatchmadeTable] = []
    for sitting in range(sittings):
        tiebreak = {bot_id: rng.random() for bot_id in by_id}
        playing = seated_within_rule(
            sorted(by_id, key=lambda bot_id: (tallies[bot_id].matches, tiebreak[bot_id])),
            authors,
            table_size,
            len(by_id) // table_size,
        )
        per_sitting = len(playing)
        if strategy == INFORMATIVE:
            groups = _informative_groups(playing, by_id, table_size, rng)
        else:
            belief = {
                bot_id: by_id[bot_id].mu + rng.gauss(0.0, 1.0) * by_id[bot_id].sigma for bot_id in playing
            }
            ordered = sorted(playing, key=lambda bot_id: (-belief[bot_id], bot_id))
            groups = [ordered[start : start + table_size] for start in range(0, per_sitting, table_size)]
        for group in keep_authors_apart(groups, authors):
            seats = assign_seats(group, {bot_id: tallies[bot_id].seat_counts for bot_id in group}, rng)
            index = len(tables)
            tables.append(MatchmadeTable(index, sitting, seats, match_seed(league_seed, round_number, index)))
            for seat, bot_id in enumerate(seats):
                tallies[bot_id].matches += 1
                tallies[bot_id].seat_counts[seat] += 1
    return tables


SIMILAR = "similar"
INFORMATIVE = "informative"
STRATEGIES = (SIMILAR, INFORMATIVE)


def _informative_groups(
    playing: Sequence[int], by_id: Mapping[int, BotStanding], table_size: int, rng: random.Random
) -> list[list[int]]:
    """Tables that teach the most: the widest σ still unseated opens a table, the closest μ fill it."""
    priority = {bot_id: rng.random() for bot_id in playing}
    left = set(playing)
    groups = []
    while len(left) >= table_size:
        opener = max(left, key=lambda b: (by_id[b].sigma, priority[b], -b))
        left.discard(opener)
        mu = by_id[opener].mu
        rest = sorted(left, key=lambda b: (abs(by_id[b].mu - mu), priority[b], b))[: table_size - 1]
        left.difference_update(rest)
        groups.append([opener, *rest])
    return groups


def _padded(counts: Sequence[int], size: int) -> list[int]:
    return [counts[seat] if seat < len(counts) else 0 for seat in range(size)]


def assign_seats(
    group: Sequence[int], seat_counts: Mapping[int, Sequence[int]], rng: random.Random
) -> tuple[int, ...]:
    """Seat the bots of `group` so that each sits where it has sat least (exact, by dynamic programming).

    Cost of a seating: (sum of the counts of the seats given, sum of their squares); ties are broken by a
    random priority of the bots drawn from `rng`. Runs in 2^n · n² for a table of n (n ≤ 8 in every game).
    """
    size = len(group)
    priority = {bot_id: rng.random() for bot_id in group}
    bots = sorted(group, key=lambda bot_id: priority[bot_id])
    # best[mask] = (cost, seating) for the first popcount(mask) seats filled by the bots in mask
    best: dict[int, tuple[tuple[int, int, tuple[int, ...]], tuple[int, ...]]] = {0: ((0, 0, ()), ())}
    for mask in range(1 << size):
        if mask not in best:
            continue
        (total, squares, order), seating = best[mask]
        seat = len(seating)
        for position, bot_id in enumerate(bots):
            if mask & (1 << position):
                continue
            count = seat_counts[bot_id][seat]
            candidate = ((total + count, squares + count * count, (*order, position)), (*seating, bot_id))
            following = mask | (1 << position)
            if following not in best or candidate[0] < best[following][0]:
                best[following] = candidate
    return best[(1 << size) - 1][1]


# Ladders ----------------------------------------------------------------------------------------------------
#
# A ladder's schedule is a pure function of its seed and its entry log: it never reads a rating or a result,
# so it replays from (seed, log) alone (`ladder_schedule`), and a late or lost result never changes a draw.
# Per sitting, in priority order:
#
# 1. **Newcomers first.** A bot with fewer than `newcomer_matches` matches drawn in the ladder plays before
#    any other (fewest first, ties by the round's generator): a new version gets its matches quickly.
# 2. **Everyone in turn.** The others play in order of how few sittings of this round they have played,
#    ties by the generator, so a bot left out of one sitting plays the next.
# 3. **Mixed tables.** The players of a sitting are shuffled by the generator and cut into tables; seats go
#    by the same exact assignment as a league's (each bot where it has sat least).
# 4. **Seeds** are a league's: SHA-256 of (ladder seed, round, index in the round).


@dataclass(frozen=True)
class LadderEvent:
    """One line of a ladder's entry log: `bot_id` enters or leaves at schedule `position`."""

    position: int
    action: str  # "enter" or "leave"
    bot_id: int
    author: int | None = None  # on "enter": the author of an uploaded program (see the module docstring)


@dataclass(frozen=True)
class LadderRound:
    """One drawn round of a ladder: its number, the position of its first match, and its tables."""

    number: int
    start: int
    tables: tuple[MatchmadeTable, ...]


def ladder_authors(events: Sequence[LadderEvent]) -> dict[int, int | None]:
    """The author of each bot of the log, as its entry wrote it."""
    return {event.bot_id: event.author for event in events if event.action == "enter"}


def ladder_members(events: Sequence[LadderEvent], position: int) -> list[int]:
    """The bots in the ladder for the round drawn at `position`: the log's events up to it, in order."""
    members: dict[int, None] = {}
    for event in events:
        if event.position > position:
            continue
        if event.action == "enter":
            members[event.bot_id] = None
        else:
            members.pop(event.bot_id, None)
    return sorted(members)


def draw_ladder_round(
    *,
    standings: Sequence[BotStanding],
    table_size: int,
    sittings: int,
    newcomer_matches: int,
    ladder_seed: int,
    round_number: int,
) -> list[MatchmadeTable]:
    """The tables of one ladder round from its members' matches and seat counts (their mu and sigma are not
    read). Raises ValueError when there are fewer bots than seats at one table."""
    if table_size < 2:
        raise ValueError("a table needs at least two seats")
    if len(standings) < table_size:
        raise ValueError(f"{len(standings)} bots cannot fill a table of {table_size}")
    if sittings < 1:
        raise ValueError("a round needs at least one sitting")
    rng = random.Random(f"bot-ladder-round:{ladder_seed}:{round_number}")
    ids = sorted(standing.bot_id for standing in standings)
    by_id = {standing.bot_id: standing for standing in standings}
    tallies = {
        bot_id: _Tally(by_id[bot_id].matches, _padded(by_id[bot_id].seat_counts, table_size))
        for bot_id in ids
    }
    this_round = dict.fromkeys(ids, 0)
    authors = {bot_id: by_id[bot_id].author for bot_id in ids}
    tables: list[MatchmadeTable] = []
    for sitting in range(sittings):
        tiebreak = {bot_id: rng.random() for bot_id in ids}

        priority = {
            bot_id: (0, tallies[bot_id].matches, tiebreak[bot_id])
            if tallies[bot_id].matches < newcomer_matches
            else (1, this_round[bot_id], tiebreak[bot_id])
            for bot_id in ids
        }
        playing = seated_within_rule(
            sorted(ids, key=priority.__getitem__), authors, table_size, len(ids) // table_size
        )
        rng.shuffle(playing)
        groups = [playing[start : start + table_size] for start in range(0, len(playing), table_size)]
        for group in keep_authors_apart(groups, authors):
            seats = assign_seats(group, {bot_id: tallies[bot_id].seat_counts for bot_id in group}, rng)
            index = len(tables)
            tables.append(MatchmadeTable(index, sitting, seats, match_seed(ladder_seed, round_number, index)))
            for seat, bot_id in enumerate(seats):
                tallies[bot_id].matches += 1
                tallies[bot_id].seat_counts[seat] += 1
                this_round[bot_id] += 1
    return tables


def ladder_schedule(
    *,
    events: Sequence[LadderEvent],
    table_size: int,
    sittings: int,
    newcomer_matches: int,
    ladder_seed: int,
    rounds: int,
    authors_apart_from: int = 0,
) -> list[LadderRound]:
    """A ladder's first `rounds` rounds, from its seed and its entry log alone (events in log order).

    One author's programs are kept apart in the rounds drawn at `authors_apart_from` and after (a ladder
    older than that rule keeps its earlier rounds as they were drawn).

    A round is drawn only when its members fill a table: a position at which they do not draws nothing
    (the ladder waits there for an entry), so the log's later events must lie beyond the last round drawn.
    """
    tallies: dict[int, _Tally] = {}
    drawn: list[LadderRound] = []
    authors = ladder_authors(events)
    position = 0
    for number in range(1, rounds + 1):
        members = ladder_members(events, position)
        if len(members) < table_size:
            break
        standings = [
            BotStanding(
                bot_id=bot_id,
                mu=0.0,
                sigma=0.0,
                matches=tallies[bot_id].matches if bot_id in tallies else 0,
                seat_counts=tuple(tallies[bot_id].seat_counts) if bot_id in tallies else (),
                author=authors.get(bot_id) if position >= authors_apart_from else None,
            )
            for bot_id in members
        ]
        tables = draw_ladder_round(
            standings=standings,
            table_size=table_size,
            sittings=sittings,
            newcomer_matches=newcomer_matches,
            ladder_seed=ladder_seed,
            round_number=number,
        )
        if not tables:
            break  # its members are all one author's programs: it waits for another's entry
        drawn.append(LadderRound(number, position, tuple(tables)))
        for table in tables:
            for seat, bot_id in enumerate(table.seats):
                tally = tallies.setdefault(bot_id, _Tally(0, [0] * table_size))
                tally.matches += 1
                tally.seat_counts[seat] += 1
        position += len(tables)
    return drawn


def challenge_seats(bot_id: int, opponent_ids: Sequence[int], index: int) -> tuple[int, ...]:
    """The seats of a challenge's match `index`: the bot, then its opponents (by id), turned by one a match,
    so every seat order of the turn is used evenly."""
    players = [bot_id, *sorted(opponent_ids)]
    shift = index % len(players)
    return tuple(players[shift:] + players[:shift])


def challenge_seed(challenge_seed_value: int, index: int) -> int:
    """The seed of a challenge's match: 63 bits of SHA-256 over (challenge seed, index)."""
    digest = hashlib.sha256(f"bot-challenge:{challenge_seed_value}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
