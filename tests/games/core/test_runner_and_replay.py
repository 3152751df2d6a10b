import copy
import json
from unittest import mock

import pytest

from games.core.bot import RandomBot
from games.core.errors import OptionError, ReplayError, UnknownBot
from games.core.record import canonical_json, compress, decompress
from games.core.replay import iter_steps, replay
from games.core.runner import SeatPlayer, play_match

GAME = "toy_high_hand"


def test_a_match_record_holds_everything_needed_to_replay_it(toy):
    record = play_match(GAME, 3, ["keep_high", "random", ("keep_high", {"threshold": 5})], seed=7)
    assert record["format"] == 1
    assert record["game"] == GAME and record["version"] == 1
    assert record["options"] == {"max_card": 6}
    assert record["seed"] == 7
    assert record["seats"] == [
        {"bot": "keep_high", "params": {"threshold": 4}, "version": 1},
        {"bot": "random", "params": {}, "version": 1},
        {"bot": "keep_high", "params": {"threshold": 5}, "version": 1},
    ]
    assert record["events"][0][0] == "c" and len(record["events"][0][1]) == 3
    assert record["events"][-1][0] == "m" and sorted(record["events"][-1][1]) == ["0", "1", "2"]
    assert record["end"] == {"reason": "normal", "forfeits": []}
    final = replay(record)
    assert final.is_terminal()
    assert final.outcome().to_json() == record["outcome"]


def test_same_seed_same_bytes_and_other_seed_other_match(toy):
    first = canonical_json(play_match(GAME, 4, ["random"] * 4, seed=11))
    again = canonical_json(play_match(GAME, 4, ["random"] * 4, seed=11))
    other = canonical_json(play_match(GAME, 4, ["random"] * 4, seed=12))
    assert first == again
    assert first != other


def test_compressed_record_round_trips(toy):
    record = play_match(GAME, 2, ["random", "random"], seed=3)
    assert decompress(compress(record)) == record


@pytest.mark.parametrize(
    ("bot", "code", "detail"),
    [
        ("raises", "crashed", "raised RuntimeError: bot crashed"),
        ("illegal", "illegal_action", "played an illegal action 'fold'"),
    ],
)
def test_a_failing_bot_forfeits_its_seat_with_a_code_and_the_match_finishes(toy, bot, code, detail):
    details = {}
    record = play_match(GAME, 3, ["keep_high", bot, "keep_high"], seed=5, forfeit_details=details)
    assert record["end"]["reason"] == "forfeit"
    assert record["end"]["forfeits"] == [{"seat": 1, "event": 2, "reason": code}]  # the deal, seat 0, seat 1
    assert details == {1: detail}
    assert record["outcome"]["places"][1] == 3
    replay(record)


def test_overrunning_the_move_time_limit_forfeits(toy):
    # The limit binds every seat: keep_high must answer within it too, which a 1 ms limit did not always
    # allow on a loaded machine (a preemption or a page fault is enough).
    details = {}
    record = play_match(GAME, 2, ["slow", "keep_high"], seed=1, move_time_limit=0.5, forfeit_details=details)
    [forfeit] = record["end"]["forfeits"]
    assert (forfeit["seat"], forfeit["reason"]) == (0, "timeout")
    assert details[0].startswith("took ") and details[0].endswith("s, over the 0.5s limit")
    assert record["outcome"]["places"] == [2, 1]


def test_an_exception_may_name_its_forfeit_code_and_an_unknown_code_counts_as_a_crash(toy):
    from games import registry
    from tests.games.toy_game import KeepHighBot

    class Overspent(Exception):
        forfeit_reason = "limit_exceeded"

    class Mumbled(Exception):
        forfeit_reason = "said something odd"

    class Spender(KeepHighBot):
        name = "spender"

        def act(self, observation, legal_actions):
            raise Overspent("over the CPU limit")

    class Mumbler(KeepHighBot):
        name = "mumbler"

        def act(self, observation, legal_actions):
            raise Mumbled("hm")

    registry.register(toy, (Spender, Mumbler))
    details = {}
    record = play_match(GAME, 3, ["spender", "mumbler", "random"], seed=3, forfeit_details=details)

    assert [(f["seat"], f["reason"]) for f in record["end"]["forfeits"]] == [
        (0, "limit_exceeded"),
        (1, "crashed"),
    ]
    assert details == {0: "over the CPU limit", 1: "raised Mumbled: hm"}
    replay(record)


def test_a_record_whose_forfeit_reason_is_not_a_code_does_not_replay(toy):
    record = play_match(GAME, 3, ["keep_high", "illegal", "keep_high"], seed=5)
    record["end"]["forfeits"][0]["reason"] = "illegal action 'fold'"

    with pytest.raises(
        ReplayError, match="forfeit reason \"illegal action 'fold'\" is not one of illegal_action"
    ):
        replay(record)


def test_a_seats_own_move_time_limit_replaces_the_matchs(toy):
    # Limits of half a second, which "slow" (a second a move) overruns and nothing else comes near on a
    # loaded machine; 1 ms limits failed there once, when a forfeited seat's substitute was still timed.
    own_limit = play_match(GAME, 2, [SeatPlayer("slow", move_time_limit=0.5), "slow"], seed=1)
    exempt = play_match(
        GAME, 2, [SeatPlayer("slow", move_time_limit=60), "slow"], seed=1, move_time_limit=0.5
    )

    assert [(f["seat"], f["event"]) for f in own_limit["end"]["forfeits"]] == [(0, 1)]
    assert [(f["seat"], f["event"]) for f in exempt["end"]["forfeits"]] == [(1, 2)]
    assert exempt["end"]["forfeits"][0]["reason"] == "timeout"


def test_a_forfeited_seats_substitute_plays_untimed_so_the_seat_forfeits_once(toy):
    """The substitute of a seat that overran its limit is not held to it: with a clock on which every move
    takes a second, the slow seat forfeits at its first move and never again."""
    ticks = iter(range(10_000))
    with mock.patch("games.core.runner.time.perf_counter", lambda: float(next(ticks))):
        record = play_match(GAME, 2, [SeatPlayer("slow", move_time_limit=0.5), "keep_high"], seed=1)
    assert [(f["seat"], f["event"], f["reason"]) for f in record["end"]["forfeits"]] == [(0, 1, "timeout")]


def test_a_seat_made_by_its_own_maker_plays_under_its_label_with_the_seats_generator(toy):
    made = []

    def make(game, seat, num_players, options, rng):
        made.append((game.spec.id, seat, num_players, options))
        return RandomBot(game, seat, num_players, options, None, rng)

    outside = SeatPlayer("outside", {"definition": "Program"}, make=make)
    record = play_match(GAME, 3, ["keep_high", outside, "random"], seed=9)
    reference = play_match(GAME, 3, ["keep_high", "random", "random"], seed=9)

    assert made == [(GAME, 1, 3, {"max_card": 6})]
    assert record["seats"][1] == {"bot": "outside", "params": {"definition": "Program"}, "external": {}}
    assert {**record, "seats": reference["seats"]} == reference
    assert replay(record).outcome().to_json() == record["outcome"]


def test_two_forfeits_share_last_place(toy):
    record = play_match(GAME, 4, ["raises", "keep_high", "illegal", "keep_high"], seed=2)
    assert [f["seat"] for f in record["end"]["forfeits"]] == [0, 2]
    places = record["outcome"]["places"]
    assert places[0] == places[2] == 3
    assert sorted([places[1], places[3]]) in ([1, 2], [1, 1])


def test_turn_cap_ends_the_match_and_says_so(toy, monkeypatch):
    monkeypatch.setattr(type(toy), "max_events", 2)
    record = play_match(GAME, 3, ["random"] * 3, seed=4)
    assert record["end"]["reason"] == "turn_cap"
    assert len(record["events"]) == 2
    state = replay(record)
    assert not state.is_terminal()
    assert record["outcome"] == state.outcome().to_json()


def test_bad_arguments_are_clear_errors(toy):
    with pytest.raises(OptionError, match="takes 2 to 4 players"):
        play_match(GAME, 5, ["random"] * 5, seed=1)
    with pytest.raises(OptionError, match="3 players need 3 bots"):
        play_match(GAME, 3, ["random"] * 2, seed=1)
    with pytest.raises(UnknownBot, match="unknown bot 'nobody'"):
        play_match(GAME, 2, ["random", "nobody"], seed=1)
    with pytest.raises(OptionError, match="unknown option colour"):
        play_match(GAME, 2, ["random"] * 2, seed=1, options={"colour": "red"})
    with pytest.raises(OptionError, match="max_card: 12 is above the maximum 9"):
        play_match(GAME, 2, ["random"] * 2, seed=1, options={"max_card": 12})
    with pytest.raises(OptionError, match="threshold: expected a whole number"):
        play_match(GAME, 2, ["random", ("keep_high", {"threshold": "high"})], seed=1)


@pytest.fixture
def record(toy):
    return play_match(GAME, 3, ["keep_high", "random", "random"], seed=21)


def tampered(record, change):
    copy_ = copy.deepcopy(record)
    change(copy_)
    return copy_


def test_replay_rejects_a_changed_outcome(record):
    bad = tampered(record, lambda r: r["outcome"]["scores"].__setitem__(0, 99))
    with pytest.raises(ReplayError, match="recorded outcome"):
        replay(bad)


def test_replay_rejects_an_illegal_decision_naming_the_event(record):
    index = next(i for i, (kind, _) in enumerate(record["events"]) if kind == "m")
    bad = tampered(record, lambda r: r["events"][index][1].__setitem__("0", "fold"))
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert info.value.event == index
    assert str(info.value) == f"event {index}: seat 0: 'fold' is not a legal action now"


def test_replay_rejects_an_impossible_chance_outcome(record):
    bad = tampered(record, lambda r: r["events"][0].__setitem__(1, [6, 6, 6]))
    with pytest.raises(ReplayError, match=r"event 0: chance outcome \[6, 6, 6\] is impossible now"):
        replay(bad)


def test_replay_rejects_removed_and_added_events(record):
    with pytest.raises(ReplayError, match="before the game is over"):
        replay(tampered(record, lambda r: r["events"].pop()))
    with pytest.raises(ReplayError, match="one too many"):
        replay(tampered(record, lambda r: r["events"].append(r["events"][-1])))
    with pytest.raises(ReplayError, match="event 1: a chance event is due here|event 1: no chance event"):
        replay(tampered(record, lambda r: r["events"].insert(1, r["events"][0])))


def test_replay_refuses_another_version_and_unknown_games(record):
    with pytest.raises(ReplayError, match="version 2; this engine plays version 1"):
        replay(tampered(record, lambda r: r.__setitem__("version", 2)))
    with pytest.raises(ReplayError, match="unknown game 'chess'"):
        replay(tampered(record, lambda r: r.__setitem__("game", "chess")))
    with pytest.raises(ReplayError, match="a match record is a JSON object"):
        replay([1, 2])


def test_iter_steps_yields_the_table_before_and_after_every_event(record):
    seen = [(step.index, step.event, step.observations()) for step in iter_steps(record)]

    assert [index for index, _, _ in seen] == list(range(len(record["events"]) + 1))
    assert [event for _, event, _ in seen] == [None, *record["events"]]
    final = replay(record)
    assert seen[-1][2] == [final.observation(seat) for seat in range(3)]
    assert seen[0][2][0]["hand"] is None  # before the deal


def test_iter_steps_raises_at_the_first_bad_event_and_checks_the_end_after_the_last_step(record):
    index = next(i for i, (kind, _) in enumerate(record["events"]) if kind == "m")
    illegal = tampered(record, lambda r: r["events"][index][1].__setitem__("0", "fold"))
    wrong_outcome = tampered(record, lambda r: r["outcome"]["scores"].__setitem__(0, 99))

    steps = iter_steps(illegal)
    assert [next(steps).index for _ in range(index + 1)] == list(range(index + 1))
    with pytest.raises(ReplayError) as info:
        next(steps)
    assert info.value.event == index
    reached = []
    with pytest.raises(ReplayError, match="recorded outcome"):
        reached.extend(step.index for step in iter_steps(wrong_outcome))
    assert reached == list(range(len(record["events"]) + 1))
    with pytest.raises(ReplayError, match="version 2; this engine plays version 1"):
        next(iter_steps(tampered(record, lambda r: r.__setitem__("version", 2))))


def test_replay_reads_json_text_the_same(record):
    assert replay(json.loads(canonical_json(record))).outcome().to_json() == record["outcome"]


def test_look_alike_json_values_are_not_legal_actions(toy):
    from games.core.state import is_legal_action

    assert is_legal_action(2, [0, 1, 2])
    assert not is_legal_action(2.0, [0, 1, 2])
    assert not is_legal_action(True, [0, 1, 2])
    assert is_legal_action(["a", 1], [["a", 1], ["b", 2]])
    assert not is_legal_action(("a", 1), [["a", 1]])
    assert not is_legal_action(["a", 1.0], [["a", 1]])
    assert not is_legal_action({1, 2}, [[1, 2]])


def test_a_bot_returning_a_look_alike_value_forfeits(toy):
    from tests.games.toy_game import KeepHighBot

    class FloatBidder(KeepHighBot):
        name = "float_bidder"

        def act(self, observation, legal_actions):
            action = super().act(observation, legal_actions)
            return float(action) if isinstance(action, int) else action

    from games import registry

    registry.register(toy, (FloatBidder,))
    record = play_match(GAME, 2, ["float_bidder", "random"], seed=3)
    [forfeit] = record["end"]["forfeits"]
    assert (forfeit["seat"], forfeit["reason"]) == (0, "illegal_action")
    replay(record)
