"""Reach: an organizer registers by hand only their walk-ins (made now, or first
registered in an event they organize) and players who asked to join; anyone else is invited by user name and
takes part only by accepting. The takeover path of the issue step by step, each step refused; the rating of a
player who never accepted does not move; the invitation accepted and declined on the invitee's pages."""

import pytest
from rest_framework.test import APIClient

from league.accounts import services as account_services
from league.accounts.models import ClaimLink
from league.core.errors import Forbidden, NotFound, UserError
from league.players.models import Player
from league.ratings.models import Rating, RatingHistory, RatingPool
from league.ratings.services import pool_update
from league.tournaments import services
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import AuditEntry, Registration, Tournament
from league.tournaments.reach import reaches
from tests.factories import PlayerFactory, StaffFactory, UserFactory
from tests.factories.tournaments import open_signup, play_round, statuses, user_with_player

TOM = (
    "a player called Tom already exists and is not one of your walk-ins: add a distinguishing word, "
    "or invite them by user name"
)


def walk_in_message(name: str) -> str:
    return TOM.replace("Tom", name)


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def browser_for(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def staff(db):
    return StaffFactory(username="staff")


@pytest.fixture
def host(db):
    return UserFactory(username="host")


@pytest.fixture
def raider(db):
    return UserFactory(username="raider")


def event(staff, organizer, name: str, **settings) -> Tournament:
    """An unrated 2-seat Swiss of Nacho Pile created by staff and organized by `organizer`."""
    values = {"game_id": "nacho_pile", "format": "swiss", "table_size": 2, "rounds": 2, "rated": False}
    values.update(settings)
    tournament = services.tournament_create(created_by=staff, name=name, **values)
    services.organizer_add(tournament=tournament, by=staff, username=organizer.username)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def home(staff, host):
    """Home Cup, a self-report event run by host, who entered the walk-ins Tom and Uma by name; round 1 of
    two is published (Tom against Uma)."""
    tournament = event(staff, host, "Home Cup", result_reporting="self_report")
    for name in ("Tom", "Uma"):
        services.registration_add(tournament=tournament, by=host, name=name)
    services.tournament_start(tournament=tournament, by=host)
    round_row = services.round_generate(tournament=tournament, by=host)
    services.round_publish(round_row=round_row, by=host)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def raid(staff, raider):
    """Raid Night, an unrelated event run by raider, before its start."""
    return event(staff, raider, "Raid Night")


def test_an_organizer_of_another_event_cannot_take_over_its_walk_ins(client, home, raid, raider):
    """The takeover path of the issue, step by step: each step is refused and nothing changes."""
    tom, uma = Player.objects.get(name="Tom"), Player.objects.get(name="Uma")
    # 1. Register them by typed name (any case): the service, the page's form and the API refuse.
    for typed in ("Tom", "tom", " TOM "):
        with pytest.raises(UserError) as refused:
            services.registration_add(tournament=raid, by=raider, name=typed)
        assert (refused.value.status, refused.value.message) == (400, TOM)
    page = browser_for(client, raider).post(f"/tournaments/{raid.slug}/register/", {"names": "Tom\nUma"})
    assert page.status_code == 400
    text = page.content.decode()
    assert f'<span class="error">{TOM}</span>' in text
    assert f'<span class="error">{walk_in_message("Uma")}</span>' in text
    api = api_for(raider)
    base = f"/api/tournaments/{raid.pk}"
    one = api.post(f"{base}/registrations/", {"name": "Tom"}, format="json")
    assert (one.status_code, one.json()["code"], one.json()["detail"]) == (400, "invalid", TOM)
    batch = api.post(
        f"{base}/registrations/batch/", {"entries": [{"name": "Uma"}], "confirm_new": True}, format="json"
    )
    assert batch.status_code == 400
    assert batch.json()["errors"] == [
        {"field": "entries.0", "code": "invalid", "detail": f"line 1: {walk_in_message('Uma')}"}
    ]
    # 2. Register them by id.
    by_id = api.post(f"{base}/registrations/", {"player": tom.pk}, format="json")
    assert (by_id.status_code, by_id.json()["detail"]) == (
        400,
        "Tom is not one of your walk-ins: invite them by user name",
    )
    assert not raid.registrations.exists()
    # 3. Issue claim links for them (to redeem with accounts the raider controls).
    with pytest.raises(Forbidden) as forbidden:
        account_services.claim_link_issue(by=raider, player_id=tom.pk)
    assert forbidden.value.message == (
        "only site staff and the organizers of the event Tom was first registered in "
        "can issue a claim link for them"
    )
    claim = api.post("/api/claims/", {"player": uma.pk}, format="json")
    assert (claim.status_code, claim.json()["code"]) == (403, "forbidden")
    assert not ClaimLink.objects.exists()
    # 4. Withdraw or drop them, check them in, ask byes for them in the other event.
    with pytest.raises(NotOrganizer):
        services.registration_leave(tournament=home, by=raider, player_id=tom.pk, status="dropped")
    dropped = api.patch(
        f"/api/tournaments/{home.pk}/registrations/{tom.pk}/", {"status": "dropped"}, format="json"
    )
    assert dropped.status_code == 403
    with pytest.raises(NotOrganizer):
        services.registration_check_in(tournament=home, by=raider, player_id=tom.pk)
    with pytest.raises(Forbidden):
        services.bye_request(tournament=home, by=raider, round_number=2, player_id=uma.pk)
    # 5. Report, confirm or enter the other event's results.
    table = home.round_set.get(number=1).tables.get()
    with pytest.raises(Forbidden) as report:
        services.table_report(table=table, by=raider, expected_version=0, places=[1, 2])
    assert report.value.message == (
        "only the players seated at this table report, confirm or dispute its result"
    )
    with pytest.raises(NotOrganizer):
        services.table_result(table=table, by=raider, expected_version=0, places=[1, 2])
    assert statuses(home) == {"Tom": "active", "Uma": "active"}
    assert not raid.registrations.exists()
    assert Player.objects.filter(name__in=["Tom", "Uma"], user__isnull=False).count() == 0
    table.match.refresh_from_db()
    assert table.match.status == "scheduled"


def test_the_organizer_of_a_walk_ins_first_event_reaches_them_elsewhere(staff, home, host):
    league = event(staff, host, "Home League")
    reg = services.registration_add(tournament=league, by=host, name="tom")
    assert (reg.player.name, reg.status) == ("Tom", "active")
    issued = account_services.claim_link_issue(by=host, player_id=reg.player_id)
    assert issued.link.player.name == "Tom"


def test_claim_links_only_from_an_organizer_of_the_first_event(client, staff, home, host, raid, raider):
    """Tom is in Raid Night too (staff put him there): its organizer still cannot hand his player away."""
    tom = Player.objects.get(name="Tom")
    services.registration_add(tournament=raid, by=staff, player_id=tom.pk)
    with pytest.raises(Forbidden):
        account_services.claim_link_issue(by=raider, player_id=tom.pk)
    assert 'id="claim-link-create"' not in browser_for(client, raider).get("/players/tom/").content.decode()
    assert 'id="claim-link-create"' in browser_for(client, host).get("/players/tom/").content.decode()
    assert account_services.claim_link_issue(by=host, player_id=tom.pk).link.issued_by == host


def test_staff_keep_their_powers(staff, home, raid):
    tom = Player.objects.get(name="Tom")
    assert services.registration_add(tournament=raid, by=staff, name="Tom").status == "active"
    assert account_services.claim_link_issue(by=staff, player_id=tom.pk).link.player == tom
    loner = PlayerFactory(name="Loner")
    assert services.registration_add(tournament=raid, by=staff, player_id=loner.pk).status == "active"


def test_walk_ins_made_now_are_their_makers_and_nobody_elses(staff, home, host, raid, raider):
    """A name nobody has makes a walk-in, which its maker may enter into their other events; a walk-in of no
    event (made by staff) or of someone else's is out of reach."""
    services.registration_add(tournament=raid, by=raider, name="Vic")
    second = event(staff, raider, "Raid Day")
    assert services.registration_add(tournament=second, by=raider, name="Vic").status == "active"
    league = event(staff, host, "Home League")
    with pytest.raises(UserError, match=f"^{walk_in_message('Vic')}$"):
        services.registration_add(tournament=league, by=host, name="Vic")
    PlayerFactory(name="Loner")
    with pytest.raises(UserError, match=f"^{walk_in_message('Loner')}$"):
        services.registration_add(tournament=second, by=raider, name="Loner")
    robo = PlayerFactory(name="Robo", kind="bot")
    with pytest.raises(UserError, match="^Robo is a bot: only site staff enter bots into tournaments$"):
        services.registration_add(tournament=second, by=raider, player_id=robo.pk)
    vic = Player.objects.get(name="Vic")
    assert (reaches(raider, vic, second), reaches(host, vic, league)) == (True, False)
    assert (reaches(raider, vic), reaches(host, vic)) == (True, False)
    assert (reaches(None, vic), reaches(staff, vic, league)) == (False, True)


def test_a_claimed_walk_in_is_out_of_reach_even_of_its_first_organizer(staff, home, host, league):
    tom = Player.objects.get(name="Tom")
    token = account_services.claim_link_issue(by=host, player_id=tom.pk).token
    tom_user = UserFactory(username="tom")
    account_services.claim_redeem(user=tom_user, token=token)
    with pytest.raises(UserError, match=f"^{TOM}$"):
        services.registration_add(tournament=league, by=host, name="Tom")
    assert services.registration_invite(tournament=league, by=host, username="tom").status == "invited"


def test_an_organizer_registers_a_player_who_asked_to_join(staff, raider):
    tournament = open_signup(staff, approval=True)
    services.organizer_add(tournament=tournament, by=staff, username="raider")
    bea = user_with_player("bea")
    assert services.registration_join(tournament=tournament, by=bea).status == "pending"
    reg = services.registration_add(tournament=tournament, by=raider, player_id=bea.player.pk)
    assert reg.status == "active"


def test_the_rating_of_a_player_who_never_accepted_does_not_move(staff, raider):
    """The demo case of the issue: Chiara (the account `demo`) has a rating; an organizer of a rated event
    cannot register her, only invite her; she is never seated, no result can be recorded for her and her
    rating stays exactly where it was while the event is played and rated."""
    demo = user_with_player("demo", "Chiara")
    chiara = demo.player
    spring = services.tournament_create(
        created_by=staff, name="Spring Open", game_id="nacho_pile", format="swiss", table_size=2, rounds=1
    )
    services.registration_add(tournament=spring, by=staff, player_id=chiara.pk)
    services.registration_add(tournament=spring, by=staff, name="Walt")
    services.tournament_start(tournament=spring, by=staff)
    play_round(spring, staff, lambda index, seats: [1, 2] if seats[0] == chiara.pk else [2, 1])
    pool = RatingPool.objects.get(game_id="nacho_pile", kind="people")
    pool_update(pool_id=pool.pk)
    before = Rating.objects.get(pool=pool, player=chiara)
    assert before.matches == 1

    rated = event(staff, raider, "Rated Raid", rated=True, rounds=1)
    services.tournament_open_registration(tournament=rated, by=raider)
    with pytest.raises(UserError, match=f"^{walk_in_message('Chiara')}$"):
        services.registration_add(tournament=rated, by=raider, name="Chiara")
    with pytest.raises(UserError, match="^Chiara is not one of your walk-ins: invite them by user name$"):
        services.registration_add(tournament=rated, by=raider, player_id=chiara.pk)
    invited = services.registration_invite(tournament=rated, by=raider, username="demo")
    assert (invited.status, invited.seed) == ("invited", None)
    with pytest.raises(UserError, match="^Chiara is invited already: they accept or decline on their page$"):
        services.registration_add(tournament=rated, by=raider, player_id=chiara.pk)
    for name in ("Xan", "Yul"):
        services.registration_add(tournament=rated, by=raider, name=name)
    with pytest.raises(StateConflict, match="^Chiara is invited, not playing$"):
        services.registration_leave(tournament=rated, by=raider, player_id=chiara.pk, status="withdrawn")
    services.tournament_start(tournament=rated, by=raider)
    with pytest.raises(NotFound, match=f"^player {chiara.pk} is not registered in this tournament$"):
        services.bye_request(tournament=rated, by=raider, round_number=1, player_id=chiara.pk)
    round_row = services.round_generate(tournament=rated, by=raider)
    with pytest.raises(UserError, match=f"^player {chiara.pk} is not in round 1$"):
        services.round_move(round_row=round_row, by=raider, player_id=chiara.pk, to_table=1)
    services.round_publish(round_row=round_row, by=raider)
    table = round_row.tables.get()
    assert sorted(table.match.seats.values_list("player__name", flat=True)) == ["Xan", "Yul"]
    with pytest.raises(UserError):
        services.table_result(table=table, by=raider, expected_version=0, places=[1, 2, 3])
    services.table_result(table=table, by=raider, expected_version=0, places=[2, 1])
    services.round_complete(round_row=round_row, by=raider)
    pool_update(pool_id=pool.pk)

    after = Rating.objects.get(pool=pool, player=chiara)
    assert (after.mu, after.sigma, after.conservative, after.matches) == (
        before.mu,
        before.sigma,
        before.conservative,
        1,
    )
    assert RatingHistory.objects.filter(player=chiara).count() == 1
    assert Rating.objects.get(pool=pool, player__name="Yul").matches == 1
    standings = api_for(raider).get(f"/api/tournaments/{rated.pk}/standings/").json()
    assert [row["name"] for row in standings] == ["Yul", "Xan"]
    public = APIClient().get(f"/api/tournaments/{rated.pk}/registrations/").json()
    assert sorted(row["name"] for row in public) == ["Xan", "Yul"]
    organizers = api_for(raider).get(f"/api/tournaments/{rated.pk}/registrations/").json()
    assert {row["name"]: row["status"] for row in organizers} == {
        "Chiara": "invited",
        "Xan": "active",
        "Yul": "active",
    }


@pytest.fixture
def league(staff, host):
    """Home League, run by host, open for registration (a draft is seen by its organizers only)."""
    tournament = event(staff, host, "Home League")
    services.tournament_open_registration(tournament=tournament, by=host)
    return tournament


def test_an_invitee_accepts_on_their_page(client, league, host):
    bea = user_with_player("bea")
    host_client = browser_for(client, host)
    page = host_client.post(f"/tournaments/{league.slug}/invite/", {"username": " bea "}, follow=True)
    assert "Bea is invited: they accept or decline on their page." in page.content.decode()
    organizer_view = page.content.decode()
    invited_list = (
        '<div id="invited"><p class="muted">Invited, not answered yet:</p><ul>\n<li><bdi>Bea</bdi> <form'
    )
    assert invited_list in organizer_view
    assert f'action="/tournaments/{league.slug}/invite/" class="inline-form" id="invite"' in organizer_view
    client.logout()
    browser_for(client, bea)
    me = client.get("/me/").content.decode()
    assert f'<span id="invited-{league.slug}">Invited</span>' in me
    assert f'action="/tournaments/{league.slug}/entry/accept/"' in me
    detail = client.get(f"/tournaments/{league.slug}/").content.decode()
    invitation = (
        "<strong>The organizers invite you to this tournament.</strong> Nothing counts until you accept."
    )
    assert invitation in detail
    accepted = client.post(f"/tournaments/{league.slug}/entry/accept/", follow=True)
    assert "You accepted the invitation: you are registered." in accepted.content.decode()
    assert statuses(league) == {"Bea": "active"}
    assert list(league.audit_entries.order_by("id").values_list("action", flat=True))[-2:] == [
        AuditEntry.Action.REGISTRATION_INVITED,
        AuditEntry.Action.INVITATION_ACCEPTED,
    ]
    again = client.post(f"/tournaments/{league.slug}/entry/accept/")
    assert again.status_code == 404


def test_an_invitee_declines_and_the_invitation_is_gone(client, league, host):
    bea = user_with_player("bea")
    services.registration_invite(tournament=league, by=host, username="bea")
    declined = browser_for(client, bea).post(f"/tournaments/{league.slug}/entry/decline/", follow=True)
    assert "You declined the invitation." in declined.content.decode()
    assert statuses(league) == {}
    assert league.audit_entries.order_by("-id").first().action == AuditEntry.Action.INVITATION_DECLINED


def test_an_organizer_takes_an_invitation_back(client, league, host, raider):
    bea = user_with_player("bea")
    services.registration_invite(tournament=league, by=host, username="bea")
    with pytest.raises(NotOrganizer):
        services.invitation_withdraw(tournament=league, by=raider, player_id=bea.player.pk)
    taken = browser_for(client, host).post(
        f"/tournaments/{league.slug}/uninvite/", {"player": bea.player.pk}, follow=True
    )
    assert "The invitation is taken back." in taken.content.decode()
    assert statuses(league) == {}
    assert league.audit_entries.order_by("-id").first().action == AuditEntry.Action.INVITATION_WITHDRAWN
    with pytest.raises(NotFound, match=f"^player {bea.player.pk} is not registered$"):
        services.invitation_withdraw(tournament=league, by=host, player_id=bea.player.pk)
    services.registration_add(tournament=league, by=host, name="Walt")
    walt = Player.objects.get(name="Walt")
    with pytest.raises(StateConflict, match="^Walt is not invited \\(active\\)$"):
        services.invitation_withdraw(tournament=league, by=host, player_id=walt.pk)


def test_only_the_invitee_answers(league, host, raider):
    services.registration_invite(tournament=league, by=host, username=user_with_player("bea").username)
    with pytest.raises(Forbidden, match="^you have no player yet: create yours on your page"):
        services.invitation_answer(tournament=league, by=raider, accept=True)
    with pytest.raises(Forbidden, match="^you have no player yet"):
        services.invitation_answer(tournament=league, by=host, accept=True)
    cal = user_with_player("cal")
    with pytest.raises(NotFound, match="^you have no invitation to this tournament$"):
        services.invitation_answer(tournament=league, by=cal, accept=True)
    with pytest.raises(UserError, match="^accept is true or false$"):
        services.invitation_answer(tournament=league, by=cal, accept="yes")
    assert statuses(league) == {"Bea": "invited"}


def test_bad_invitations_are_refused_with_their_reason(client, league, host, raider):
    user_with_player("bea")
    UserFactory(username="nobody_yet")
    cases = [
        ("", "name the user to invite"),
        ("ghost", "no user called 'ghost'"),
        ("nobody_yet", "nobody_yet has no player yet: they create theirs on their page first"),
    ]
    for username, message in cases:
        with pytest.raises(UserError) as refused:
            services.registration_invite(tournament=league, by=host, username=username)
        assert (refused.value.status, refused.value.message) == (400, message)
    services.registration_invite(tournament=league, by=host, username="bea")
    with pytest.raises(UserError, match="^Bea is invited already$"):
        services.registration_invite(tournament=league, by=host, username="bea")
    with pytest.raises(NotOrganizer):
        services.registration_invite(tournament=league, by=raider, username="bea")
    draft = event(league.created_by, host, "Draft Day")
    with pytest.raises(StateConflict, match="^open registration first: only the organizers see a draft$"):
        services.registration_invite(tournament=draft, by=host, username="bea")
    assert 'id="invite"' not in browser_for(client, host).get(f"/tournaments/{draft.slug}/").content.decode()
    page = browser_for(client, host).post(f"/tournaments/{league.slug}/invite/", {"username": "ghost"})
    assert page.status_code == 400
    assert '<p class="error-box" role="alert">no user called &#x27;ghost&#x27;</p>' in page.content.decode()
    stranger = browser_for(client, raider).post(f"/tournaments/{league.slug}/invite/", {"username": "bea"})
    assert stranger.status_code == 403


def test_an_invitation_accepted_while_running_is_a_late_entry(staff, host):
    tournament = event(staff, host, "Late Swiss", rounds=3)
    for name in ("Ann", "Ben"):
        services.registration_add(tournament=tournament, by=host, name=name)
    services.tournament_start(tournament=tournament, by=host)
    play_round(tournament, host)
    bea = user_with_player("bea")
    services.registration_invite(tournament=tournament, by=host, username="bea")
    reg = services.invitation_answer(tournament=tournament, by=bea, accept=True)
    assert (reg.status, reg.seed, reg.entered_round) == (Registration.Status.ACTIVE, 3, 2)
    finished = event(staff, host, "Done Cup", rounds=1)
    services.registration_add(tournament=finished, by=host, name="Ann")
    services.registration_add(tournament=finished, by=host, name="Ben")
    services.tournament_start(tournament=finished, by=host)
    play_round(finished, host)
    assert Tournament.objects.get(pk=finished.pk).status == "finished"
    with pytest.raises(StateConflict, match="^the tournament is finished$"):
        services.registration_invite(tournament=finished, by=host, username="bea")
