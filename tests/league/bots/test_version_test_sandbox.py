"""Is v2 better than v1, with uploaded programs in the real sandbox: an author uploads a random Nacho Pile
player as version 1 of a bot and a greedy one as version 2, tests v2 against v1, and the workers' loop plays
the pairs' matches in the sandbox until the verdict "better"; every game is a recorded match that replays.

50 pairs (the least before a verdict), 100 sandboxed matches: about 20 s on 2 shared cores (SQLite and
PostgreSQL alike, December 2026)."""

from __future__ import annotations

from unittest import mock

import pytest

from games.core.replay import replay
from league.bots import sprt
from league.bots.models import BotDefinition, VersionTest, VersionTestMatch
from league.bots.services import leases, work
from league.bots.services.version_tests import version_test_create
from league.bots.services.work import FairShare, work_shared
from league.bots.uploads import bot_check, bot_upload
from league.matches.models import Match

pytestmark = [pytest.mark.sandbox, pytest.mark.django_db]

# Version 1: a uniformly random legal action, seeded by the match (the same match plays the same way).
RANDOM = b"""import json, random, sys
rng = random.Random(0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        rng = random.Random(message["seed"])
    elif message["type"] == "act":
        print(json.dumps({"action": rng.choice(message["legal_actions"])}), flush=True)
    elif message["type"] == "end":
        break
"""
# Version 2: draws while the next chip busts with a chance below a quarter (Nacho Pile's bag in the
# observation says it), else stops; a Wild's value or a Special's target at random. Against version 1 with
# the heuristic in the third seat, it finishes ahead in about seven games of ten.
GREEDY = b"""import json, random, sys
RISK = 0.25
NUMBERS = [str(value) for value in range(1, 8)]


def bust_chance(observation):
    drawn = [str(chip) for chip in observation["drawn"]]
    bag = observation["bag"]
    taken = {chip for chip in drawn if chip in NUMBERS or chip in ("steal", "score", "remove")}
    bad = sum(bag[chip] for chip in taken) + (bag["W"] if "W" in drawn else 0)
    total = sum(bag.values())
    return bad / total if total else 1.0


rng = random.Random(0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        rng = random.Random(message["seed"])
    elif message["type"] == "act":
        legal = message["legal_actions"]
        if legal == ["draw", "stop"]:
            action = "draw" if bust_chance(message["observation"]) < RISK else "stop"
        else:
            action = rng.choice(legal)
        print(json.dumps({"action": action}), flush=True)
    elif message["type"] == "end":
        break
"""
CAP = 150  # pairs: well above the 50 a verdict needs, well below the 2,000 by default


@pytest.fixture
def no_tasks(monkeypatch):
    monkeypatch.setattr(leases, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr(work, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr("league.bots.services.version_tests.queue_challenge_work", lambda tasks: None)


def upload(user, data: bytes) -> BotDefinition:
    """The next version of `user`'s bot "Pecker", checked in the sandbox (no validation matches: the test's
    settings leave them off, a checked version is ready)."""
    with mock.patch("league.bots.uploads.signature"):
        bot = bot_upload(by=user, game_id="nacho_pile", name="Pecker", data=data, filename="bot.py")
    with mock.patch("league.bots.services.challenges.signature"):
        bot_check(bot_id=bot.pk)
    bot.refresh_from_db()
    assert (bot.state, bot.refusal) == ("ready", "")
    return bot


def test_an_uploaded_greedy_v2_is_called_better_than_its_random_v1_in_the_sandbox(member, no_tasks):
    v1 = upload(member, RANDOM)
    v2 = upload(member, GREEDY)
    assert (v1.version, v2.version, v2.previous_id) == (1, 2, v1.pk)
    assert v1.program.runtime == v2.program.runtime == "python"
    # elo1 80: v2's ~+140 Elo over v1 (a mean pair score near 0.7) puts the LLR far above its bound by the
    # 50th pair (8.5 against 2.94 with seed 46).
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, elo1=80, max_pairs=CAP, seed=46)
    fair = FairShare()
    with mock.patch("league.matches.services.signature"):
        for _ in range(4 * CAP):
            if not work_shared(worker="test-version-sandbox", fair=fair, max_slices=1):
                break
    test.refresh_from_db()
    assert (test.state, test.verdict) == (VersionTest.State.FINISHED, "better")
    assert test.llr >= sprt.bounds().upper
    assert test.pairs_void == 0
    assert sum(test.counts) == test.next_pair
    assert sprt.MIN_PAIRS <= test.next_pair < CAP
    assert test.counts[4] > test.counts[0]  # more pairs swept by v2 than by v1
    rows = list(VersionTestMatch.objects.filter(test=test).select_related("match").order_by("pair", "game"))
    assert [(row.pair, row.game) for row in rows] == [
        (pair, game) for pair in range(test.next_pair) for game in (0, 1)
    ]
    assert all(row.done and row.match.status == Match.Status.FINISHED for row in rows)
    assert {row.match.owner for row in rows} == {Match.Owner.VERSION_TEST}
    players = {v1.player_id, v2.player_id}
    for row in rows:  # every game's record replays, move by move, to the places the match stored
        record = row.match.record_json()
        assert record["end"] == {"reason": "normal", "forfeits": []}
        assert replay(record).outcome().to_json() == record["outcome"]
        seats = list(row.match.seats.order_by("seat").values_list("player_id", "place"))
        assert players <= {player for player, _ in seats}
        assert list(record["outcome"]["places"]) == [place for _, place in seats]
