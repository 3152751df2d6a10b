"""Writes for tournaments. Each function checks first (raising a `UserError`: 400 bad input, 403 not an
organizer, 409 wrong state) and only then writes, inside one transaction holding the tournament row lock,
so two organizers clicking at once cannot both generate a round or publish it twice.

Results are entered through the league's result service (`league.results.services.result_submit`): a
tournament table's result is a version of its match, corrections included, and ratings follow from the
match's pool. Standings are never stored: they are computed from the results (`selectors`), so a correction
of an earlier round updates standings and tie-breaks at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from games.core.errors import OptionError
from league.core.catalogue import game_spec
from league.core.errors import UserError
from league.matches.models import Match
from league.matches.services import match_create, match_void
from league.players.models import Player
from league.players.services import player_create
from league.ratings.models import Rating
from league.results.services import result_submit
from league.tournaments import seam
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Registration, Round, Table, Tournament
from league.tournaments.selectors import is_organizer

NAME_MAX_LENGTH = 120
RESERVED_SLUGS = {"new", "login"}  # page URLs under /tournaments/
MAX_ROUNDS = 60
FIRST_STAGES = ("swiss", "round_robin")
CUT_FORMATS = ("single_elimination", "double_elimination")
SETTINGS = (
    "name", "game_id", "options", "format", "table_size", "leftovers", "rounds", "first_stage", "cut_size",
    "cut_format", "advance", "third_place", "grand_final_reset", "points", "tiebreaks", "rated",
)  # fmt: skip


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_organizer(*, user: AbstractBaseUser | None, tournament: Tournament) -> None:
    """Raise NotOrganizer (403) unless `user` organizes `tournament` or is site staff."""
    if not is_organizer(user, tournament):
        raise NotOrganizer()


def _locked(tournament: Tournament) -> Tournament:
    """The tournament row, locked until the end of the transaction (call inside one)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def check_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a tournament's settings; return them cleaned (options completed, defaults filled).

    Table sizes must suit the game: the preferred size and every size the leftover rule allows lie within
    the game's player range for the chosen options, so no table falls below the game's minimum.
    """
    cleaned = dict(values)
    name = cleaned.get("name")
    if not isinstance(name, str) or not name.strip():
        raise UserError("a tournament needs a name", field="name")
    cleaned["name"] = " ".join(name.split())
    if len(cleaned["name"]) > NAME_MAX_LENGTH or not slugify(cleaned["name"]):
        raise UserError(f"a name has 1 to {NAME_MAX_LENGTH} characters, with a letter or digit", field="name")
    spec = game_spec(cleaned.get("game_id"), field="game")
    options = cleaned.get("options") or {}
    if not isinstance(options, Mapping):
        raise UserError("options must be an object of option names and values", field="options")
    try:
        cleaned["options"] = spec.validate_options(options)
    except OptionError as exc:
        raise UserError(str(exc), field="options") from None
    fmt = cleaned.get("format", Tournament.Format.SWISS)
    if fmt not in Tournament.Format.values:
        raise UserError(f"format must be one of {', '.join(Tournament.Format.values)}", field="format")
    leftovers = cleaned.get("leftovers", Tournament.Leftovers.SHORT)
    if leftovers not in Tournament.Leftovers.values:
        raise UserError(f"leftovers must be one of {', '.join(Tournament.Leftovers.values)}", field="leftovers")
    size = cleaned.get("table_size", 2)
    low, high = spec.players_allowed(cleaned["options"])
    if not _is_int(size) or not low <= size <= high:
        raise UserError(f"{spec.name} is played at tables of {low} to {high} with these options", field="table_size")
    rounds = cleaned.get("rounds")
    if rounds is not None and (not _is_int(rounds) or not 1 <= rounds <= MAX_ROUNDS):
        raise UserError(f"rounds run from 1 to {MAX_ROUNDS}", field="rounds")
    for flag in ("third_place", "grand_final_reset", "rated"):
        if flag in cleaned and not isinstance(cleaned[flag], bool):
            raise UserError(f"{flag} must be true or false", field=flag)
    advance = cleaned.get("advance", 1)
    if not _is_int(advance) or advance < 1:
        raise UserError("advance is a whole number from 1", field="advance")
    if fmt == Tournament.Format.SWISS and rounds is None:
        raise UserError("a Swiss tournament needs its number of rounds", field="rounds")
    if fmt == Tournament.Format.DOUBLE_ELIMINATION and size != 2:
        raise UserError("double elimination is for tables of 2", field="format")
    if fmt == Tournament.Format.SINGLE_ELIMINATION and size > 2 and advance >= size - (leftovers == "short"):
        raise UserError(f"with tables of {size}, fewer than {size - (leftovers == 'short')} players must advance"
                        " from each table, or nobody is eliminated", field="advance")  # fmt: skip
    if fmt == Tournament.Format.STAGES:
        if rounds is None:
            raise UserError("a stage sequence needs the number of rounds of its first stage", field="rounds")
        if cleaned.get("first_stage", "swiss") not in FIRST_STAGES:
            raise UserError(f"the first stage is one of {', '.join(FIRST_STAGES)}", field="first_stage")
        if cleaned.get("cut_format", "single_elimination") not in CUT_FORMATS:
            raise UserError(f"the top cut is one of {', '.join(CUT_FORMATS)}", field="cut_format")
        cut = cleaned.get("cut_size")
        if not _is_int(cut) or cut < 2:
            raise UserError("a top cut needs a size of at least 2 players", field="cut_size")
        if cleaned.get("cut_format") == "double_elimination" and size != 2:
            raise UserError("double elimination is for tables of 2", field="cut_format")
    cleaned["points"] = seam.check_points(cleaned.get("points"))
    tiebreaks = cleaned.get("tiebreaks") or list(seam.DEFAULT_TIEBREAKS)
    if not isinstance(tiebreaks, list | tuple) or not all(isinstance(name, str) for name in tiebreaks):
        raise UserError("tie-breaks are a list of names", field="tiebreaks")
    unknown = [name for name in tiebreaks if name not in seam.TIEBREAKS]
    if unknown:
        raise UserError(f"unknown tie-break {unknown[0]!r}; choose from {', '.join(seam.TIEBREAKS)}", field="tiebreaks")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise UserError("each tie-break is listed once", field="tiebreaks")
    cleaned["tiebreaks"] = list(tiebreaks)
    return cleaned


def _free_slug(name: str, exclude_id: int | None = None) -> str:
    base = slugify(name)[:120]
    taken = set(Tournament.objects.filter(slug__startswith=base).exclude(pk=exclude_id).values_list("slug", flat=True))
    taken |= RESERVED_SLUGS
    if base not in taken:
        return base
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"


def tournament_create(*, created_by: AbstractBaseUser, **settings: Any) -> Tournament:
    """Create a draft tournament; its creator becomes its first organizer. Only site staff create them."""
    if created_by is None or not created_by.is_authenticated or not created_by.is_staff:
        raise NotOrganizer("only site staff create tournaments")
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    cleaned = check_settings(settings)
    with transaction.atomic():
        tournament = Tournament.objects.create(slug=_free_slug(cleaned["name"]), created_by=created_by, **cleaned)
        tournament.organizers.add(created_by)
    return tournament


def tournament_update(*, tournament: Tournament, by: AbstractBaseUser, **changes: Any) -> Tournament:
    """Change settings while the tournament has not started (draft or registration)."""
    check_organizer(user=by, tournament=tournament)
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("settings are fixed once the tournament has started", field="status")
        current = {name: getattr(tournament, name) for name in SETTINGS}
        cleaned = check_settings({**current, **changes})
        fields = [name for name in SETTINGS if cleaned[name] != current[name]]
        for name in fields:
            setattr(tournament, name, cleaned[name])
        if "name" in fields:
            tournament.slug = _free_slug(cleaned["name"], tournament.pk)
            fields.append("slug")
        if fields:
            tournament.save(update_fields=fields)
    return tournament


def organizer_add(*, tournament: Tournament, by: AbstractBaseUser, username: Any) -> AbstractBaseUser:
    """Add the user called `username` to the tournament's organizers."""
    check_organizer(user=by, tournament=tournament)
    if not isinstance(username, str) or not username.strip():
        raise UserError("name the user to add", field="username")
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise UserError(f"no user called {username.strip()!r}", field="username")
    tournament.organizers.add(user)
    return user


def _move_status(tournament: Tournament, by: AbstractBaseUser, allowed: Sequence[str], target: str) -> Tournament:
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status not in allowed:
            raise StateConflict(
                f"a tournament in {tournament.get_status_display().lower()} cannot move to "
                f"{Tournament.Status(target).label.lower()}", field="status",
            )  # fmt: skip
        tournament.status = target
        tournament.save(update_fields=["status"])
    return tournament


def tournament_open_registration(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    return _move_status(tournament, by, [Tournament.Status.DRAFT], Tournament.Status.REGISTRATION)


def _last_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def tournament_start(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """Close registration and start: players without a seed are seeded by rating after the seeded ones."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("the tournament has already started", field="status")
        active = tournament.registrations.filter(status=Registration.Status.ACTIVE)
        minimum = seam.table_spec(tournament).minimum
        if active.count() < max(2, minimum):
            raise StateConflict(f"a tournament needs at least {max(2, minimum)} registered players to start")
        _fill_seeds(tournament)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return tournament


def tournament_finish(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """End a running tournament early (it also ends by itself when its last round completes)."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            raise StateConflict("only a running tournament can be finished", field="status")
        last = _last_round(tournament)
        if last is not None and last.status != Round.Status.COMPLETE:
            raise StateConflict(f"round {last.number} is not complete: complete or discard it first")
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
    return tournament


def _rating_order(tournament: Tournament, registrations: list[Registration]) -> list[Registration]:
    """Registrations by conservative rating in the game's people pool (best first); unrated players after,
    in the order they registered."""
    ratings = dict(
        Rating.objects.filter(
            pool__kind="people", pool__game_id=tournament.game_id, player_id__in=[reg.player_id for reg in registrations]
        ).values_list("player_id", "conservative")
    )
    return sorted(
        registrations,
        key=lambda reg: (reg.player_id not in ratings, -ratings.get(reg.player_id, 0.0), reg.created_at, reg.pk),
    )


def _fill_seeds(tournament: Tournament) -> None:
    active = list(tournament.registrations.filter(status=Registration.Status.ACTIVE))
    unseeded = [reg for reg in active if reg.seed is None]
    if not unseeded:
        return
    next_seed = 1 + max((reg.seed for reg in active if reg.seed is not None), default=0)
    for offset, reg in enumerate(_rating_order(tournament, unseeded)):
        reg.seed = next_seed + offset
    Registration.objects.bulk_update(unseeded, ["seed"])


def tournament_seed(
    *, tournament: Tournament, by: AbstractBaseUser, method: str, order: Sequence[int] | None = None
) -> list[Registration]:
    """Seed every active player, by rating ("rating") or in the given order of player ids ("hand").
    Only before round 1 is generated."""
    check_organizer(user=by, tournament=tournament)
    if method not in ("rating", "hand"):
        raise UserError("seed by 'rating' or by 'hand'", field="method")
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status == Tournament.Status.FINISHED or tournament.round_set.exists():
            raise StateConflict("seeds are fixed once round 1 is generated", field="status")
        active = list(tournament.registrations.filter(status=Registration.Status.ACTIVE))
        if method == "rating":
            ordered = _rating_order(tournament, active)
        else:
            by_player = {reg.player_id: reg for reg in active}
            if (
                not isinstance(order, list | tuple)
                or not all(_is_int(pid) for pid in order)
                or sorted(order) != sorted(by_player)
            ):
                raise UserError("list every registered player's id once, top seed first", field="order")
            ordered = [by_player[pid] for pid in order]
        tournament.registrations.update(seed=None)
        for seed, reg in enumerate(ordered, start=1):
            reg.seed = seed
        Registration.objects.bulk_update(ordered, ["seed"])
    return ordered


def _check_late_entry(tournament: Tournament) -> int:
    """The round a player registering now enters at; raises unless the format takes late entries."""
    last = _last_round(tournament)
    if last is None:
        return 1
    fixed = tournament.format in (Tournament.Format.ROUND_ROBIN, Tournament.Format.SINGLE_ELIMINATION,
                                  Tournament.Format.DOUBLE_ELIMINATION)  # fmt: skip
    if tournament.format == Tournament.Format.STAGES:
        fixed = tournament.first_stage == "round_robin" or last.number >= (tournament.rounds or 0)
    if fixed:
        raise StateConflict("the field is fixed once the first round is drawn: no late entries in this format")
    if last.status == Round.Status.DRAFT:
        raise StateConflict(f"round {last.number} is a draft: publish or discard it before a late entry")
    return last.number + 1


def registration_open(tournament: Tournament) -> bool:
    """Whether players can register now (before the start, or as a late entry in a format that takes them)."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    if tournament.status != Tournament.Status.RUNNING:
        return True
    try:
        _check_late_entry(tournament)
    except StateConflict:
        return False
    return True


def registration_add(
    *, tournament: Tournament, by: AbstractBaseUser, player_id: Any = None, name: Any = None, seed: Any = None
) -> Registration:
    """Register a player (by id, or by name: a new name makes a new player). While the tournament runs this is
    a late entry: the player enters at the next round with zero points and the next free seed."""
    check_organizer(user=by, tournament=tournament)
    if seed is not None and (not _is_int(seed) or seed < 1):
        raise UserError("a seed is a whole number from 1", field="seed")
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        if player_id is not None:
            player = Player.objects.filter(pk=player_id).first() if _is_int(player_id) else None
            if player is None:
                raise UserError(f"no player with id {player_id}", field="player")
        elif isinstance(name, str) and name.strip():
            player = Player.objects.filter(name__iexact=" ".join(name.split())).first()
            if player is None:
                player = player_create(name=name)
        else:
            raise UserError("name the player to register", field="player")
        if not player.active:
            raise UserError(f"{player.name} is inactive and cannot take seats", field="player")
        if tournament.rated and player.kind != Player.Kind.PERSON:
            raise UserError("bots play rated matches only in bot leagues", field="player")
        entered = 1
        if tournament.status == Tournament.Status.RUNNING:
            entered = _check_late_entry(tournament)
            if seed is None:
                seed = 1 + (tournament.registrations.aggregate(top=Max("seed"))["top"] or 0)
        existing = tournament.registrations.filter(player=player).first()
        if existing is not None and existing.status == Registration.Status.ACTIVE:
            raise UserError(f"{player.name} is already registered", field="player", code="duplicate")
        try:
            with transaction.atomic():
                if existing is not None:
                    if existing.entered_round != entered and tournament.status == Tournament.Status.RUNNING:
                        raise StateConflict(f"{player.name} left this tournament and cannot come back")
                    existing.status = Registration.Status.ACTIVE
                    existing.seed = seed
                    existing.save(update_fields=["status", "seed"])
                    return existing
                return Registration.objects.create(tournament=tournament, player=player, seed=seed, entered_round=entered)
        except IntegrityError:
            raise UserError(f"seed {seed} is taken", field="seed") from None


def registration_leave(*, tournament: Tournament, by: AbstractBaseUser, player_id: Any, status: str) -> Registration:
    """A player leaves: `withdrawn` before the start, `dropped` or `no_show` while the tournament runs (they
    are paired no more; results already played stay)."""
    check_organizer(user=by, tournament=tournament)
    if status not in (Registration.Status.WITHDRAWN, Registration.Status.DROPPED, Registration.Status.NO_SHOW):
        raise UserError("status is one of withdrawn, dropped, no_show", field="status")
    with transaction.atomic():
        tournament = _locked(tournament)
        reg = tournament.registrations.filter(player_id=player_id).first() if _is_int(player_id) else None
        if reg is None:
            raise UserError(f"player {player_id} is not registered", field="player", code="not_found")
        if reg.status != Registration.Status.ACTIVE:
            raise StateConflict(f"{reg.player} has already left ({reg.get_status_display().lower()})")
        started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
        if status == Registration.Status.WITHDRAWN and started:
            raise StateConflict("the tournament has started: the player drops (or is a no-show) instead")
        if status != Registration.Status.WITHDRAWN and not started:
            raise StateConflict("before the start a player withdraws")
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished", field="status")
        last = _last_round(tournament)
        if last is not None and last.status == Round.Status.DRAFT and any(
            reg.player_id in table.planned_seats for table in last.tables.all()
        ):
            raise StateConflict(f"{reg.player} is seated in the draft of round {last.number}: discard it first")
        reg.status = status
        if status == Registration.Status.WITHDRAWN:
            reg.seed = None
        else:
            reg.left_after_round = last.number if last is not None else 0
        reg.save(update_fields=["status", "seed", "left_after_round"])
    return reg


def round_generate(*, tournament: Tournament, by: AbstractBaseUser) -> Round:
    """Generate the next round as a draft. 409 while the last round is not complete or the tournament is not
    running; 400 when the format cannot pair the field (the pairing layer's message)."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = _locked(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            what = "finished" if tournament.status == Tournament.Status.FINISHED else "not started yet"
            raise StateConflict(f"the tournament is {what}: rounds are generated while it runs", field="status")
        last = _last_round(tournament)
        if last is not None and last.status != Round.Status.COMPLETE:
            raise StateConflict(f"round {last.number} is not complete yet: the next round waits for every result")
        number = 1 if last is None else last.number + 1
        history = seam.load_history(tournament)
        planned = seam.planned_rounds(history)
        if planned is not None and number > planned and tournament.format != Tournament.Format.STAGES:
            raise StateConflict(f"all {planned} rounds are played: finish the tournament")
        values = seam.draft_values(seam.generate(history, number))
        round_row = Round.objects.create(
            tournament=tournament,
            number=number,
            byes=values["byes"],
            advanced=values["advanced"],
            final=values["final"],
            quality=values["quality"],
        )
        Table.objects.bulk_create(
            Table(round=round_row, number=index, label=table["label"], planned_seats=table["seats"])
            for index, table in enumerate(values["tables"], start=1)
        )
    return round_row


def _draft_round(round_row: Round, by: AbstractBaseUser) -> Round:
    check_organizer(user=by, tournament=round_row.tournament)
    _locked(round_row.tournament)
    locked = Round.objects.select_for_update().get(pk=round_row.pk)
    if locked.status != Round.Status.DRAFT:
        raise StateConflict(f"round {locked.number} is {locked.get_status_display().lower()}: only drafts change")
    return locked


def round_discard(*, round_row: Round, by: AbstractBaseUser) -> None:
    """Delete a draft round (to regenerate it after registrations changed)."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        locked.delete()


def _table_of(round_row: Round, number: Any) -> Table:
    table = round_row.tables.filter(number=number).first() if _is_int(number) else None
    if table is None:
        raise UserError(f"round {round_row.number} has no table {number}", field="table")
    return table


def _check_adjustable(round_row: Round, tournament: Tournament, *, between_tables: bool) -> None:
    elimination = tournament.is_elimination or (
        tournament.format == Tournament.Format.STAGES and round_row.number > (tournament.rounds or 0)
    )
    if elimination and between_tables:
        raise StateConflict("elimination tables follow the bracket: only seats within a table can be swapped")


def _store_adjusted(round_row: Round, tables: list[Table]) -> None:
    Table.objects.bulk_update(tables, ["planned_seats"])
    history = seam.load_history(round_row.tournament)
    ordered = sorted(tables, key=lambda table: table.number)
    round_row.quality = seam.quality_after_adjust(
        history, round_row.number, [table.planned_seats for table in ordered], list(round_row.byes)
    )
    round_row.save(update_fields=["quality", "byes"])


def round_swap(
    *, round_row: Round, by: AbstractBaseUser, first_table: Any, first_seat: Any, second_table: Any, second_seat: Any
) -> Round:
    """Swap two seats of a draft round (within one table, or between two tables). Seats count from 1."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        numbers = (_table_of(locked, first_table).number, _table_of(locked, second_table).number)
        _check_adjustable(locked, locked.tournament, between_tables=numbers[0] != numbers[1])
        tables = list(locked.tables.all())
        by_number = {table.number: table for table in tables}
        first, second = by_number[numbers[0]], by_number[numbers[1]]
        for table, seat in ((first, first_seat), (second, second_seat)):
            if not _is_int(seat) or not 1 <= seat <= len(table.planned_seats):
                raise UserError(f"table {table.number} has seats 1 to {len(table.planned_seats)}", field="seat")
        a, b = first_seat - 1, second_seat - 1
        first.planned_seats[a], second.planned_seats[b] = second.planned_seats[b], first.planned_seats[a]
        _store_adjusted(locked, tables)
    return locked


def round_move(*, round_row: Round, by: AbstractBaseUser, player_id: Any, to_table: Any) -> Round:
    """Move a player of a draft round (seated, or with a bye) to the last seat of another table.
    No table may fall below or rise above the game's player range."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        tournament = locked.tournament
        _check_adjustable(locked, tournament, between_tables=True)
        target = _table_of(locked, to_table)
        if not _is_int(player_id):
            raise UserError("name the player to move by id", field="player")
        tables = list(locked.tables.all())
        source = next((table for table in tables if player_id in table.planned_seats), None)
        if source is None and player_id not in locked.byes:
            raise UserError(f"player {player_id} is not in round {locked.number}", field="player")
        if source is not None and source.number == target.number:
            raise UserError(f"the player already sits at table {target.number}", field="table")
        low, high = game_spec(tournament.game_id).players_allowed(tournament.options)
        target = next(table for table in tables if table.number == target.number)
        if len(target.planned_seats) + 1 > high:
            raise UserError(f"table {target.number} is full: the game seats at most {high}", field="table")
        if source is not None:
            if len(source.planned_seats) - 1 < low:
                raise UserError(f"table {source.number} would fall below the game's minimum of {low}", field="table")
            source.planned_seats.remove(player_id)
        else:
            locked.byes = [pid for pid in locked.byes if pid != player_id]
        target.planned_seats.append(player_id)
        _store_adjusted(locked, tables)
    return locked


def round_publish(*, round_row: Round, by: AbstractBaseUser) -> Round:
    """Publish a draft: each table becomes a scheduled match of the league (rated as the tournament is)."""
    with transaction.atomic():
        locked = _draft_round(round_row, by)
        tournament = locked.tournament
        now = timezone.now()
        tables = list(locked.tables.order_by("number"))
        for table in tables:
            table.match = match_create(
                game_id=tournament.game_id,
                player_ids=table.planned_seats,
                options=tournament.options,
                rated=tournament.rated,
                played_at=now,
                created_by=by,
            )
        Table.objects.bulk_update(tables, ["match"])
        locked.status = Round.Status.PUBLISHED
        locked.published_at = now
        locked.save(update_fields=["status", "published_at"])
    return locked


def _published_table(table: Table, by: AbstractBaseUser) -> Table:
    """The table read afresh (the caller's copy of its round may be stale), checked to be published."""
    table = Table.objects.select_related("round__tournament", "match").get(pk=table.pk)
    check_organizer(user=by, tournament=table.round.tournament)
    if table.round.status == Round.Status.DRAFT or table.match_id is None:
        raise StateConflict(f"round {table.round.number} is a draft: publish it before entering results")
    return table


def table_result(
    *,
    table: Table,
    by: AbstractBaseUser,
    expected_version: Any,
    places: Any = None,
    scores: Any = None,
    reason: str = "",
) -> Table:
    """Enter (or correct) a table's result through the league's result service. A correction of an earlier
    round is allowed: standings, tie-breaks and ratings follow; published pairings stay."""
    table = _published_table(table, by)
    with transaction.atomic():
        result_submit(
            match_id=table.match_id,
            expected_version=expected_version,
            places=places,
            scores=scores,
            entered_by=by,
            reason=reason,
        )
        if table.closed_as:
            table.closed_as = Table.Closed.NO
            table.absent = []
            table.save(update_fields=["closed_as", "absent"])
    return table


def table_close(*, table: Table, by: AbstractBaseUser, absent: Any, kind: str, reason: str = "") -> Table:
    """Close a table as a no-show or forfeit. Absent players share last place and present players share
    first; with nobody present the match is void and nobody scores. No-shows are paired no more."""
    table = _published_table(table, by)
    if kind not in (Table.Closed.NO_SHOW, Table.Closed.FORFEIT):
        raise UserError("close a table as no_show or forfeit", field="kind")
    seats = list(table.match.seats.order_by("seat").values_list("player_id", flat=True))
    if not isinstance(absent, list | tuple) or not absent or not all(pid in seats for pid in absent):
        raise UserError("name the absent players among the table's players", field="absent")
    absent = sorted(set(absent), key=seats.index)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=table.match_id)
        if len(absent) == len(seats):
            match_void(match_id=match.pk)
        else:
            places = [len(seats) - len(absent) + 1 if pid in absent else 1 for pid in seats]
            label = Table.Closed(kind).label.lower()
            result_submit(
                match_id=match.pk,
                expected_version=match.result_version,
                places=places,
                entered_by=by,
                reason=reason or (f"closed as {label}" if match.result_version else ""),
            )
        table.closed_as = kind
        table.absent = absent
        table.save(update_fields=["closed_as", "absent"])
        if kind == Table.Closed.NO_SHOW:
            Registration.objects.filter(
                tournament=table.round.tournament, player_id__in=absent, status=Registration.Status.ACTIVE
            ).update(status=Registration.Status.NO_SHOW, left_after_round=table.round.number)
    return table


def round_complete(*, round_row: Round, by: AbstractBaseUser) -> Round:
    """Complete a published round once every table has a result (or is void); the tournament finishes
    when this was its last round."""
    check_organizer(user=by, tournament=round_row.tournament)
    with transaction.atomic():
        tournament = _locked(round_row.tournament)
        locked = Round.objects.select_for_update().get(pk=round_row.pk)
        if locked.status == Round.Status.DRAFT:
            raise StateConflict(f"round {locked.number} is a draft: publish it first")
        if locked.status == Round.Status.COMPLETE:
            raise StateConflict(f"round {locked.number} is already complete")
        waiting = [
            str(number)
            for number, status in locked.tables.order_by("number").values_list("number", "match__status")
            if status not in (Match.Status.FINISHED, Match.Status.VOID)
        ]
        if waiting:
            raise StateConflict(f"round {locked.number} still waits for the result of table {', '.join(waiting)}")
        locked.status = Round.Status.COMPLETE
        locked.completed_at = timezone.now()
        locked.save(update_fields=["status", "completed_at"])
        if seam.is_finished(seam.load_history(tournament), locked):
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
    return locked
