"""Is v2 better than v1? An author's sequential test of two versions of a bot, played by the workers'
loop in the challenges' share: the stronger version is called better, with its pairs and counts."""

from __future__ import annotations

import pytest

from league.bots import sprt
from league.bots.models import BotDefinition, VersionTest, VersionTestMatch
from league.bots.services import leases, work
from league.bots.services.challenges import OPEN_PER_USER, challenge_create
from league.bots.services.definitions import bot_player_create, bot_register
from league.bots.services.version_tests import pair_seats, version_test_create
from league.bots.services.work import FairShare, work_shared
from league.core.errors import Forbidden, UserError
from league.matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_tasks(monkeypatch):
    monkeypatch.setattr(leases, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr(work, "queue_challenge_work", lambda tasks: None)
    monkeypatch.setattr("league.bots.services.version_tests.queue_challenge_work", lambda tasks: None)


def versions(author, staff, *, v1="random", v2="heuristic", game_id="nacho_pile", name="Hen"):
    """Versions 1 and 2 of a bot of `author`'s: built-in strategies stand in for their programs."""
    first = bot_register(name=name, game_id=game_id, kind="builtin", strategy=v1, by=staff)
    first.created_by = author
    first.save(update_fields=["created_by"])
    second = BotDefinition.objects.create(
        name=name,
        version=2,
        game_id=game_id,
        kind="builtin",
        strategy=v2,
        params={},
        previous=first,
        created_by=author,
        player=bot_player_create(name=name, version=2, author=author),
    )
    return first, second


def play_all(limit=200):
    fair = FairShare()
    for _ in range(limit):
        if not work_shared(worker="w", fair=fair, max_slices=1):
            return


def test_pairs_swap_v1_and_v2_in_one_seat_and_turn_the_seat_each_pair():
    order = [1, 2, 30]
    assert pair_seats(order, 0, 0) == [1, 2, 30]
    assert pair_seats(order, 0, 1) == [2, 1, 30]
    assert pair_seats(order, 1, 0) == [30, 1, 2]
    assert pair_seats(order, 1, 1) == [30, 2, 1]
    assert pair_seats(order, 2, 0) == [2, 30, 1]
    assert pair_seats(order, 3, 1) == [2, 1, 30]


def test_a_clearly_stronger_v2_is_called_better(staff, member, no_tasks):
    v1, v2 = versions(member, staff)
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=46)
    heuristic = test.opponents.get()
    assert (heuristic.strategy, heuristic.created_by) == ("heuristic", None)
    first = list(VersionTestMatch.objects.filter(test=test).order_by("game"))
    assert [row.pair for row in first] == [0, 0]
    assert first[0].seed == first[1].seed
    seats = [[seat.player_id for seat in row.match.seats.order_by("seat")] for row in first]
    assert seats == [
        [v1.player_id, v2.player_id, heuristic.player_id],
        [v2.player_id, v1.player_id, heuristic.player_id],
    ]
    assert {row.match.owner for row in first} == {Match.Owner.VERSION_TEST}
    assert not any(row.match.rated for row in first)
    play_all()
    test.refresh_from_db()
    assert test.state == VersionTest.State.FINISHED
    assert test.verdict == "better"
    assert test.llr >= sprt.bounds().upper
    assert sum(test.counts) == test.next_pair >= sprt.MIN_PAIRS
    assert VersionTestMatch.objects.filter(test=test, done=True).count() == 2 * test.next_pair
    assert test.llr == pytest.approx(sprt.llr(test.counts))
    assert not VersionTestMatch.objects.filter(done=False).exists()  # nothing left to play after the verdict


def test_equal_versions_end_at_the_cap_or_not_better(staff, member, no_tasks):
    v1, v2 = versions(member, staff, v1="heuristic", v2="heuristic")
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=1, max_pairs=3)
    play_all()
    test.refresh_from_db()
    assert (test.state, test.verdict, test.next_pair) == ("finished", "no verdict within the cap", 3)
    # the same strategy in the same seat of the same seed: every game's places agree, every pair is level
    assert test.counts == [0, 0, 3, 0, 0]


def test_only_the_author_of_two_ready_versions_of_one_bot_tests_them(staff, member, django_user_model):
    v1, v2 = versions(member, staff)
    other, _ = versions(member, staff, name="Other")
    stranger = django_user_model.objects.create_user("stranger", password="x")
    with pytest.raises(Forbidden):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=stranger)
    with pytest.raises(Forbidden):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=None)
    cases = [
        ({"v1_id": v1.pk, "v2_id": v1.pk}, "v2", "choose two different versions"),
        ({"v1_id": other.pk, "v2_id": v2.pk}, "v2", "are not versions of one bot"),
        ({"v1_id": "1; drop", "v2_id": v2.pk}, "v1", "v1 must be a bot id"),
        ({"v1_id": 10**15, "v2_id": v2.pk}, "v1", "no bot with this id"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "elo1": -5.0}, "elo1", "must be above"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "elo1": float("nan")}, "elo1", "must be a number"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "alpha": 0.9}, "alpha", "from 0.001 to 0.5"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "max_pairs": 2001}, "max_pairs", "from 1 to 2000"),
        ({"v1_id": v1.pk, "v2_id": v2.pk, "max_pairs": True}, "max_pairs", "whole number"),
    ]
    for kwargs, field, words in cases:
        with pytest.raises(UserError, match=words) as caught:
            version_test_create(by=member, **kwargs)
        assert caught.value.field == field
    assert not VersionTest.objects.exists()


def test_a_running_test_counts_against_the_authors_open_challenges(staff, member, no_tasks):
    v1, v2 = versions(member, staff)
    rival = bot_register(name="Rival", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    for _ in range(OPEN_PER_USER):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member)
    with pytest.raises(UserError, match="you have 3 challenges or version tests still playing"):
        challenge_create(bot_id=v2.pk, opponent_ids=[rival.pk], matches=1, by=member)
    with pytest.raises(UserError, match="you have 3 challenges or version tests still playing"):
        version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member)


def test_the_author_reads_the_verdict_on_its_page_linked_from_the_bot_page(
    staff, member, no_tasks, client, django_user_model, monkeypatch
):
    monkeypatch.setattr("league.bots.version_test_pages.PAIRS_PER_PAGE", 20)
    v1, v2 = versions(member, staff)
    client.force_login(member)
    form = client.get(f"/bots/version-tests/new/?v2={v2.pk}").content.decode()
    assert f'<option value="{v1.pk}" selected>' in form  # v1 is the version before v2
    response = client.post(
        "/bots/version-tests/new/", {"v1": v1.pk, "v2": v2.pk, "elo1": 10, "max_pairs": 2000}
    )
    test = VersionTest.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/bots/version-tests/{test.pk}/"
    bot_page = client.get(f"/bots/bots/{v2.pk}/").content.decode()
    assert f'href="/bots/version-tests/new/?v2={v2.pk}"' in bot_page
    listed = f'<a href="/bots/version-tests/{test.pk}/"><bdi>Hen v2</bdi> against <bdi>Hen</bdi></a>'
    assert f"{listed} · running" in bot_page
    play_all()
    test.refresh_from_db()
    html = client.get(f"/bots/version-tests/{test.pk}/").content.decode()
    assert "Verdict: <strong>better</strong>" in html
    assert f'<span id="llr">{test.llr:.3f}</span>' in html
    assert '<span id="lower">-2.944</span>' in html and '<span id="upper">2.944</span>' in html
    assert f'<span id="pairs">{sum(test.counts)}</span>' in html
    for count in test.counts:
        assert f'<td class="num">{count}</td>' in html
    newest = VersionTestMatch.objects.filter(test=test).order_by("-pair", "game").first()
    assert f'<a href="/matches/{newest.match_id}/">match {newest.match_id}</a>' in html
    assert html.count("/replay/") == 2 * 20  # the games are on pages of 20 pairs here, newest first
    assert f"page 1 of {-(-test.next_pair // 20)}" in html
    pages = -(-test.next_pair // 20)
    last = client.get(f"/bots/version-tests/{test.pk}/?page={pages}").content.decode()
    first = VersionTestMatch.objects.filter(test=test).order_by("pair", "game").first()
    assert f'<a href="/matches/{first.match_id}/">match {first.match_id}</a>' in last
    assert client.get(f"/bots/version-tests/{test.pk}/?page=x'--").status_code == 200
    assert client.get(f"/bots/matches/{first.match_id}/replay/").status_code == 200
    match_page = client.get(f"/matches/{first.match_id}/").content.decode()
    assert f'href="/bots/version-tests/{test.pk}/">a version test, pair 1</a>' in match_page
    assert "better" in client.get(f"/bots/bots/{v2.pk}/").content.decode()
    stranger = django_user_model.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    assert client.get(f"/bots/version-tests/{test.pk}/").status_code == 403
    assert client.get(f"/bots/matches/{first.match_id}/replay/").status_code == 403
    assert "Version tests" not in client.get(f"/bots/bots/{v2.pk}/").content.decode()
    client.logout()
    assert client.get(f"/bots/version-tests/{test.pk}/").status_code == 302


def test_the_new_test_form_says_what_is_wrong(staff, member, client):
    v1, v2 = versions(member, staff)
    client.force_login(member)
    response = client.post("/bots/version-tests/new/", {"v1": v1.pk, "v2": v1.pk, "elo1": 10, "max_pairs": 5})
    assert response.status_code == 400
    assert "choose two different versions" in response.content.decode()
    response = client.post("/bots/version-tests/new/", {"v1": v1.pk, "v2": v2.pk, "elo1": 10, "max_pairs": 0})
    assert response.status_code == 400
    assert not VersionTest.objects.exists()


def test_the_api_creates_and_reads_a_test(staff, member, no_tasks, django_user_model):
    from rest_framework.test import APIClient

    v1, v2 = versions(member, staff)
    api = APIClient()
    api.force_authenticate(member)
    response = api.post(
        "/api/version-tests/", {"v1": v1.pk, "v2": v2.pk, "max_pairs": 2, "seed": 5}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["v1"], body["v2"], body["state"], body["verdict"]) == (v1.pk, v2.pk, "running", "running")
    assert (body["elo0"], body["elo1"], body["alpha"], body["beta"], body["max_pairs"]) == (
        0.0,
        10.0,
        0.05,
        0.05,
        2,
    )
    assert body["counts"] == [0, 0, 0, 0, 0]
    assert body["upper_bound"] == pytest.approx(2.944438979)
    play_all()
    read = api.get(f"/api/version-tests/{body['id']}/").json()
    assert (read["state"], read["verdict"], read["pairs"]) == ("finished", "no verdict within the cap", 2)
    assert [(m["pair"], m["game"], m["status"]) for m in read["matches"]] == [
        (0, 0, "finished"),
        (0, 1, "finished"),
        (1, 0, "finished"),
        (1, 1, "finished"),
    ]
    assert [row["id"] for row in api.get("/api/version-tests/").json()["results"]] == [body["id"]]
    bad = api.post("/api/version-tests/", {"v1": v1.pk, "v2": v2.pk, "elo1": -1}, format="json")
    assert bad.status_code == 400
    assert api.post("/api/version-tests/", {"v1": "x", "v2": v2.pk}, format="json").status_code == 400
    stranger = django_user_model.objects.create_user("stranger", password="x")
    api.force_authenticate(stranger)
    assert api.get(f"/api/version-tests/{body['id']}/").status_code == 403
    assert api.get("/api/version-tests/").json()["results"] == []
    assert api.post("/api/version-tests/", {"v1": v1.pk, "v2": v2.pk}, format="json").status_code == 403
    api.force_authenticate(None)
    assert api.get("/api/version-tests/").status_code in (401, 403)


def test_the_schema_documents_version_tests(client, db):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert set(paths["/api/version-tests/"]) == {"get", "post"}
    assert set(paths["/api/version-tests/{id}/"]) == {"get"}
    assert "403" in paths["/api/version-tests/{id}/"]["get"]["responses"]
    components = schema["components"]["schemas"]
    detail = components["VersionTestDetail"]["properties"]
    for name in ("verdict", "llr", "lower_bound", "upper_bound", "counts", "pairs", "matches"):
        assert name in detail
    create = components["VersionTestCreate"]["properties"]
    assert create["max_pairs"]["maximum"] == 2000


def test_a_version_test_is_played_in_the_challenges_share_taking_turns_with_them(staff, member, no_tasks):
    from itertools import count

    from league.bots.models import Challenge

    ticks = count()
    fair = FairShare(clock=lambda: float(next(ticks)))
    v1, v2 = versions(member, staff)
    rival = bot_register(name="Rival", game_id="nacho_pile", kind="builtin", strategy="random", by=staff)
    challenge = challenge_create(bot_id=v2.pk, opponent_ids=[rival.pk], matches=3, seed=1, by=member)
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=2)
    assert work_shared(worker="w", fair=fair, max_slices=1) == {"challenge": 3}
    assert work_shared(worker="w", fair=fair, max_slices=1)["version_test"] >= 2
    assert "version_test" not in fair.served  # its slices count as the challenges'
    challenge.refresh_from_db()
    test.refresh_from_db()
    assert challenge.status == Challenge.Status.FINISHED
    assert test.next_pair >= 1


def test_staff_read_version_tests_in_the_admin(staff, member, no_tasks, admin_client):
    v1, v2 = versions(member, staff)
    test = version_test_create(v1_id=v1.pk, v2_id=v2.pk, by=member, seed=3)
    page = admin_client.get("/admin/bots/versiontest/")
    assert page.status_code == 200
    assert f"/admin/bots/versiontest/{test.pk}/change/" in page.content.decode()
    assert admin_client.get(f"/admin/bots/versiontest/{test.pk}/change/").status_code == 200
