"""The data migration that rewrites stored forfeit reasons (words, some with the program's text or the time a
move took) into the codes records hold now."""

import importlib
from unittest import mock

import pytest
from django.apps import apps

from games.core.record import compress
from league.bots.models import Fixture
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.matches.models import Match
from tests.league.bots.conftest import make_bots, make_league

migration = importlib.import_module("league.matches.migrations.0004_forfeit_reason_codes")


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ("illegal action 'fly away'", "illegal_action"),
        ("took 1.234s, over the 1s limit", "timeout"),
        ("raised RuntimeError: the bot fell over", "crashed"),
        ("raised ExternalBotError: no answer within 5.2s (killed)", "timeout"),
        ("raised ExternalBotError: did not read its input within 0.3s (killed)", "timeout"),
        ("raised ExternalBotError: exited without answering (killed by SIGXCPU)", "limit_exceeded"),
        ("raised ExternalBotError: exited without answering (exit status 1): MemoryError", "crashed"),
        ("raised ExternalBotError: answered something that is not JSON: 'I fold!'", "protocol_error"),
        ('raised ExternalBotError: answered \'["stop"]\', not {"action": ...}', "protocol_error"),
        ("raised ExternalBotError: answered more than 1048576 bytes without a newline", "limit_exceeded"),
        ("timeout", "timeout"),
        ("something nobody wrote", "crashed"),
    ],
)
def test_each_old_reason_becomes_its_code(words, code):
    assert migration.reason_code(words) == code


@pytest.mark.django_db
def test_the_migration_rewrites_the_stored_records_and_leaves_the_others_byte_for_byte(staff):
    bots = make_bots(staff, (("Faller", "raises", {}), ("Cheater", "illegal", {}), ("Plain", "random", {})))
    league = make_league(staff, bots, target_value=1, sittings_per_round=2)
    with mock.patch("league.bots.services.leagues.queue_work"):
        league_start(league_id=league.pk)
        work_play(league_id=league.pk, worker="test")
    first, second = (Match.objects.get(pk=f.match_id) for f in Fixture.objects.filter(league=league))
    current = first.record_json()
    old = {**current, "end": {**current["end"], "forfeits": [dict(f) for f in current["end"]["forfeits"]]}}
    words = {
        "crashed": "raised RuntimeError: the bot fell over",
        "illegal_action": "illegal action 'fly away'",
    }
    for forfeit in old["end"]["forfeits"]:
        forfeit["reason"] = words[forfeit["reason"]]
    Match.objects.filter(pk=first.pk).update(record=compress(old))

    migration.rewrite_reasons(apps, None)

    assert [f["reason"] for f in old["end"]["forfeits"]] == [
        words[f["reason"]] for f in current["end"]["forfeits"]
    ]
    assert bytes(Match.objects.get(pk=first.pk).record) == compress(current)
    assert bytes(Match.objects.get(pk=second.pk).record) == bytes(second.record)
