"""Helpers that build tournaments and play rounds through the tournament services (so they are valid)."""

from league.matches.models import Match
from league.players.models import Player
from league.tournaments import services
from league.tournaments.formats import flows
from league.tournaments.models import Registration, Round, Table, Tournament
from tests.factories import PlayerFactory, UserFactory

NAMES = (
    "Ada",
    "Bea",
    "Cal",
    "Dov",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kai",
    "Lea",
    "Max",
    "Noa",
    "Oli",
    "Pia",
)


def players_named(names) -> list[Player]:
    """Players with these names, made when missing."""
    return [Player.objects.filter(name=name).first() or PlayerFactory(name=name) for name in names]


def make_tournament(
    organizer, count: int = 12, *, start: bool = True, **settings
) -> tuple[Tournament, list[Player]]:
    """A tournament of `count` players named Ada, Bea, ... seeded in that order (default: a 3-round Swiss of
    Nacho Pile at tables of 4), started unless `start` is False."""
    values = {"name": "Spring Open", "game_id": "nacho_pile", "format": "swiss", "table_size": 4, "rounds": 3}
    values.update(settings)
    tournament = services.tournament_create(created_by=organizer, **values)
    players = players_named(NAMES[:count])
    for seed, player in enumerate(players, start=1):
        services.registration_add(tournament=tournament, by=organizer, player_id=player.pk, seed=seed)
    if start:
        services.tournament_start(tournament=tournament, by=organizer)
    tournament.refresh_from_db()
    return tournament, players


def table_seats(round_row: Round) -> list[list[int]]:
    """Player ids per table in seat order (published rounds read the matches)."""
    return [
        list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
        if table.match_id
        else list(table.planned_seats)
        for table in round_row.tables.order_by("number").select_related("match")
    ]


def play_round(tournament: Tournament, organizer, places=None, *, complete: bool = True) -> Round:
    """Generate, publish and fill the next round. `places(table_index, seats)` gives a table's places in seat
    order; by default the seat order is the finishing order.

    Once a 2-seat bracket has started its matches open by themselves: the next round is then the earliest
    round with tables waiting, and its waiting tables are filled (the round completes by itself)."""
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.status != Round.Status.DRAFT and flows(tournament, last.number):
        waiting = Table.objects.filter(round__tournament=tournament, match__status=Match.Status.SCHEDULED)
        round_row = waiting.order_by("round__number").first().round
        tables = waiting.filter(round=round_row).order_by("number").select_related("match")
        complete = False
    else:
        round_row = services.round_generate(tournament=tournament, by=organizer)
        services.round_publish(round_row=round_row, by=organizer)
        tables = round_row.tables.order_by("number").select_related("match")
        complete = complete and not flows(tournament, round_row.number)
    for index, table in enumerate(tables):
        seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
        chosen = places(index, seats) if places else list(range(1, len(seats) + 1))
        services.table_result(table=table, by=organizer, expected_version=0, places=chosen)
    if complete:
        services.round_complete(round_row=round_row, by=organizer)
    round_row.refresh_from_db()
    tournament.refresh_from_db()
    return round_row


def better_seed_wins(tournament: Tournament, upset: bool = False):
    """A `places` callback for 2-seat tables: the better seed wins (the worse one with `upset`)."""

    def places(index, seats):
        registrations = Registration.objects.filter(tournament=tournament, player_id__in=seats)
        seeds = dict(registrations.values_list("player_id", "seed"))
        first_wins = (seeds[seats[0]] < seeds[seats[1]]) != upset
        return [1, 2] if first_wins else [2, 1]

    return places


def user_with_player(username: str, name: str | None = None):
    """A user who owns a person-player (named `name`, by default the user name capitalised)."""
    user = UserFactory(username=username)
    PlayerFactory(name=name or username.capitalize(), user=user)
    return user


def open_signup(organizer, *, schedule=None, name: str = "Open Day", **signup) -> Tournament:
    """A 2-seat Swiss of Nacho Pile (unrated) with registration open to players who join themselves.

    `signup` sets the sign-up settings (self sign-up on by default), `schedule` the event's clock."""
    tournament = services.tournament_create(
        created_by=organizer,
        name=name,
        game_id="nacho_pile",
        format="swiss",
        table_size=2,
        rounds=2,
        rated=False,
    )
    services.signup_configure(tournament=tournament, by=organizer, **{"self_signup": True, **signup})
    if schedule:
        services.tournament_schedule(tournament=tournament, by=organizer, **schedule)
    services.tournament_open_registration(tournament=tournament, by=organizer)
    tournament.refresh_from_db()
    return tournament


def statuses(tournament: Tournament) -> dict[str, str]:
    """Player name → registration status."""
    return dict(tournament.registrations.values_list("player__name", "status"))
