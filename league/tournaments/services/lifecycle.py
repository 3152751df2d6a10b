"""A tournament's settings and lifecycle: create, change settings, roles (organizers and scorekeepers), the
event's clock (time zone, start, check-in, round times), open registration, seed, start (under check-in:
no-shows out, checked-in waitlisted players up), finish. Settings are checked whole (`check_settings`)
before anything is written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from games.core.errors import OptionError
from league.core import events
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.checks import is_int
from league.core.errors import ErrorCode, NotFound, UserError
from league.core.names import check_name, check_text
from league.core.slugs import free_slug
from league.ratings.models import Rating
from league.tournaments import clock, seam
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Registration, Round, RoundTime, Tournament, default_time_zone
from league.tournaments.selectors import start_plan
from league.tournaments.services.audit import Action, audit, diff
from league.tournaments.services.checks import check_points, largest_top_cut, top_cut_problem
from league.tournaments.services.common import check_organizer, last_round, tournament_locked

NAME_MAX_LENGTH = 120
RESERVED_SLUGS = {"new", "login"}  # page URLs under /tournaments/
SLUG_LENGTH = 120  # of the slug column's 130, leaving room for a -N suffix
SETTING_BOUNDS = {  # the whole-number settings; the page form and the API serializer take the same (`limits`)
    "table_size": Bounds(2, 7),  # the game's own player range narrows it
    "rounds": Bounds(1, 60),
    "cut_size": Bounds(2, 1024),
    "advance": Bounds(1, 6),  # fewer than a table of 7 seats
    "dispute_window_minutes": Bounds(0, 1440),  # up to a day
}
FIRST_STAGES = ("swiss", "round_robin")
CUT_FORMATS = ("single_elimination", "double_elimination")
SETTINGS = (
    "name",
    "game_id",
    "options",
    "format",
    "table_size",
    "leftovers",
    "rounds",
    "first_stage",
    "cut_size",
    "cut_format",
    "advance",
    "third_place",
    "grand_final_reset",
    "points",
    "tiebreaks",
    "rated",
    "scale_points",
    "requested_bye_score",
    "result_reporting",
    "two_seat_confirmation",
    "dispute_window_minutes",
    "venue",
    "description",
)
TEXT_LIMITS = {"venue": 200, "description": 4000}  # characters, as the columns store
SCHEDULE = ("time_zone", "starts_at", "checkin_opens_at", "round_times")
ROLES = ("organizer", "scorekeeper")
# A started stage sequence's settings that may change until its cut is drawn.
CUT_SETTINGS = ("cut_size", "advance")


def check_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a tournament's settings; return them cleaned (options completed, defaults filled).

    Table sizes must suit the game: the preferred size and every size the leftover rule allows lie within
    the game's player range for the chosen options, so no table falls below the game's minimum.
    """
    cleaned = dict(values)
    cleaned["name"] = check_name(cleaned.get("name"), what="a tournament", max_length=NAME_MAX_LENGTH)
    # a missing id is refused as an unknown one (a UserError naming the games)
    spec = game_spec(cleaned.get("game_id"), field="game")  # type: ignore[arg-type]  # checked by game_spec
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
        raise UserError(
            f"leftovers must be one of {', '.join(Tournament.Leftovers.values)}", field="leftovers"
        )
    size = SETTING_BOUNDS["table_size"].check(cleaned.get("table_size", 2), "table_size")
    low, high = spec.players_allowed(cleaned["options"])
    if not low <= size <= high:
        raise UserError(
            f"{spec.name} is played at tables of {low} to {high} with these options", field="table_size"
        )
    rounds = cleaned.get("rounds")
    if rounds is not None:
        SETTING_BOUNDS["rounds"].check(rounds, "rounds")
    for flag in ("third_place", "grand_final_reset", "rated", "scale_points"):
        if flag in cleaned and not isinstance(cleaned[flag], bool):
            raise UserError(f"{flag} must be true or false", field=flag)
    advance = SETTING_BOUNDS["advance"].check(cleaned.get("advance", 1), "advance")
    cut = cleaned.get("cut_size")
    if cut is not None:
        SETTING_BOUNDS["cut_size"].check(cut, "cut_size")
    if fmt == Tournament.Format.SWISS and rounds is None:
        raise UserError("a Swiss tournament needs its number of rounds", field="rounds")
    if fmt == Tournament.Format.DOUBLE_ELIMINATION and size != 2:
        raise UserError("double elimination is for tables of 2", field="format")
    if fmt == Tournament.Format.SINGLE_ELIMINATION and size > 2 and advance >= size - (leftovers == "short"):
        raise UserError(
            f"with tables of {size}, fewer than {size - (leftovers == 'short')} players must advance"
            " from each table, or nobody is eliminated",
            field="advance",
        )
    if fmt == Tournament.Format.STAGES:
        if rounds is None:
            raise UserError("a stage sequence needs the number of rounds of its first stage", field="rounds")
        if cleaned.get("first_stage", "swiss") not in FIRST_STAGES:
            raise UserError(f"the first stage is one of {', '.join(FIRST_STAGES)}", field="first_stage")
        if cleaned.get("cut_format", "single_elimination") not in CUT_FORMATS:
            raise UserError(f"the top cut is one of {', '.join(CUT_FORMATS)}", field="cut_format")
        if cut is None:
            raise UserError("a top cut needs a size of at least 2 players", field="cut_size")
        if cleaned.get("cut_format") == "double_elimination" and size != 2:
            raise UserError("double elimination is for tables of 2", field="cut_format")
        _check_top_cut(cleaned, size=size, leftovers=leftovers, cut=cut, advance=advance)
    cleaned["points"] = check_points(cleaned.get("points"))
    tiebreaks = cleaned.get("tiebreaks") or list(seam.DEFAULT_TIEBREAKS)
    if not isinstance(tiebreaks, list | tuple) or not all(isinstance(name, str) for name in tiebreaks):
        raise UserError("tie-breaks are a list of names", field="tiebreaks")
    unknown = [name for name in tiebreaks if name not in seam.TIEBREAKS]
    if unknown:
        raise UserError(
            f"unknown tie-break {unknown[0]!r}; choose from {', '.join(seam.TIEBREAKS)}", field="tiebreaks"
        )
    if len(set(tiebreaks)) != len(tiebreaks):
        raise UserError("each tie-break is listed once", field="tiebreaks")
    cleaned["tiebreaks"] = list(tiebreaks)
    bye_score = cleaned.get("requested_bye_score", Tournament.ByeScore.ZERO)
    if bye_score not in Tournament.ByeScore.values:
        raise UserError(
            f"a requested bye scores one of {', '.join(Tournament.ByeScore.values)}",
            field="requested_bye_score",
        )
    reporting = cleaned.setdefault("result_reporting", Tournament.Reporting.ORGANIZER)
    if reporting not in Tournament.Reporting.values:
        raise UserError(
            f"result_reporting is one of {', '.join(Tournament.Reporting.values)}", field="result_reporting"
        )
    two_seats = cleaned.setdefault("two_seat_confirmation", Tournament.TwoSeatConfirmation.OPPONENT)
    if two_seats not in Tournament.TwoSeatConfirmation.values:
        raise UserError(
            f"two_seat_confirmation is one of {', '.join(Tournament.TwoSeatConfirmation.values)}",
            field="two_seat_confirmation",
        )
    cleaned["dispute_window_minutes"] = SETTING_BOUNDS["dispute_window_minutes"].check(
        cleaned.get("dispute_window_minutes", 15), "dispute_window_minutes"
    )
    for name, limit in TEXT_LIMITS.items():
        cleaned[name] = check_text(cleaned.get(name) or "", field=name, max_length=limit)
    return cleaned


def _check_top_cut(cleaned: Mapping[str, Any], *, size: int, leftovers: str, cut: int, advance: int) -> None:
    """Refuse a stage sequence's top cut that could never be played (docs/tournaments.md, "The size of a top
    cut"): an advance that eliminates nobody, a cut below 2 or not of whole tables."""
    settings = Tournament(
        game_id=cleaned["game_id"],
        options=cleaned["options"],
        table_size=size,
        leftovers=leftovers,
        cut_size=cut,
        advance=advance,
        cut_format=cleaned.get("cut_format", "single_elimination"),
    )
    problem = top_cut_problem(settings)
    if problem is not None:
        raise UserError(problem, field="advance" if size > 2 and advance >= size else "cut_size")


def _free_slug(name: str, exclude_id: int | None = None) -> str:
    return free_slug(
        name,
        rows=Tournament.objects.all(),
        length=SLUG_LENGTH,
        fallback="tournament",
        exclude_id=exclude_id,
        reserved=RESERVED_SLUGS,
    )


def tournament_create(
    *, created_by: User, time_zone: Any = None, starts_at: Any = None, **settings: Any
) -> Tournament:
    """Create a draft tournament; its creator becomes its first organizer. Only site staff create them.

    Without `scale_points`, points are scaled at pod tables (a table size above 2) and not at 2 seats.
    `time_zone` (default: the site's) and `starts_at` (a local time of that zone, or an instant) set the
    event's clock at once, as `tournament_schedule` would."""
    if created_by is None or not created_by.is_authenticated or not created_by.is_staff:
        raise NotOrganizer("only site staff create tournaments")
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    cleaned = check_settings(settings)
    if "scale_points" not in settings:
        cleaned["scale_points"] = cleaned.get("table_size", 2) > 2
    zone = clock.check_zone(time_zone) if time_zone not in (None, "") else default_time_zone()
    start = clock.to_instant(starts_at, zone, field="starts_at")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            slug=_free_slug(cleaned["name"]),
            created_by=created_by,
            time_zone=zone,
            starts_at=start,
            **cleaned,
        )
        tournament.organizers.add(created_by)
        audit(
            tournament,
            created_by,
            Action.TOURNAMENT_CREATED,
            name=tournament.name,
            game=tournament.game_id,
            format=tournament.format,
        )
    return tournament


def check_settings_open(tournament: Tournament) -> None:
    """Raise StateConflict (409) once the tournament has started: its settings are fixed from then on."""
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise StateConflict("settings are fixed once the tournament has started", field="status")


def cut_settings_open(tournament: Tournament) -> bool:
    """Whether a started stage sequence's cut settings (`CUT_SETTINGS`) may still change: its cut is not
    drawn yet (no round after the first stage's exists)."""
    return (
        tournament.status == Tournament.Status.RUNNING
        and tournament.format == Tournament.Format.STAGES
        and not Round.objects.filter(tournament=tournament, number__gt=tournament.rounds or 0).exists()
    )


def _check_started_changes(tournament: Tournament, cleaned: Mapping[str, Any], fields: list[str]) -> None:
    """After the start, only the cut's size and advance change, until the cut is drawn, and the cut must fit
    the players still in (StateConflict or UserError otherwise)."""
    if not set(fields) <= set(CUT_SETTINGS):
        check_settings_open(tournament)
    if "cut_size" in fields or "advance" in fields:
        _check_cut_fits(
            tournament,
            cleaned["cut_size"],
            players=tournament.registrations.filter(status=Registration.Status.ACTIVE).count(),
            advance=cleaned["advance"],
            who="still in",
        )


def _check_cut_fits(tournament: Tournament, cut: int, *, players: int, advance: int, who: str) -> None:
    """Refuse a top cut larger than the `players` there are, naming the largest one they can fill."""
    if cut <= players:
        return
    settings = Tournament(
        game_id=tournament.game_id,
        options=tournament.options,
        table_size=tournament.table_size,
        leftovers=tournament.leftovers,
        advance=advance,
        cut_format=tournament.cut_format,
    )
    largest = largest_top_cut(settings, players)
    raise UserError(
        f"a top cut of {cut} needs at least {cut} players and {players} are {who}: "
        + (f"the largest possible cut is {largest}" if largest else "no top cut is possible with so few")
        + "; change the cut's size in the settings",
        field="cut_size",
    )


def tournament_update(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change settings while the tournament has not started (draft or registration); once a stage sequence
    has started, its cut's size and advance until the cut is drawn (`cut_settings_open`). A cut larger
    than the places of a capped tournament is refused."""
    check_organizer(user=by, tournament=tournament)
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
        if started and not cut_settings_open(tournament):
            check_settings_open(tournament)
        current = {name: getattr(tournament, name) for name in SETTINGS}
        cleaned = check_settings({**current, **changes})
        fields = [name for name in SETTINGS if cleaned[name] != current[name]]
        if started:
            _check_started_changes(tournament, cleaned, fields)
        elif cleaned["format"] == Tournament.Format.STAGES:
            _check_cut_within_capacity(tournament, cleaned["cut_size"])
        if fields:
            audit(
                tournament,
                by,
                Action.SETTINGS_CHANGED,
                changes=diff(current, {f: cleaned[f] for f in fields}),
            )
        for name in fields:
            setattr(tournament, name, cleaned[name])
        if "name" in fields:
            tournament.slug = _free_slug(cleaned["name"], tournament.pk)
            fields.append("slug")
        if fields:
            tournament.save(update_fields=fields)
    return tournament


def _check_cut_within_capacity(tournament: Tournament, cut: int | None) -> None:
    if cut is not None and tournament.capacity is not None and cut > tournament.capacity:
        raise UserError(
            f"a top cut of {cut} is larger than this tournament's {tournament.capacity} places",
            field="cut_size",
        )


def organizer_add(*, tournament: Tournament, by: User, username: Any) -> User:
    """Add the user called `username` to the tournament's organizers (`role_add` with the organizer role)."""
    return role_add(tournament=tournament, by=by, username=username, role="organizer")


def role_add(*, tournament: Tournament, by: User, username: Any, role: Any) -> User:
    """Give the user called `username` a role in the tournament: `organizer` (everything) or `scorekeeper`
    (enters and corrects results only). An organizer added as a scorekeeper is refused (organizers enter
    results too); a scorekeeper added as an organizer becomes one.

    The right to add is checked before the name is looked up, so someone who may not add learns nothing
    about which accounts exist: the same 403 whatever the name."""
    check_organizer(user=by, tournament=tournament)
    if role not in ROLES:
        raise UserError(f"role is one of {', '.join(ROLES)}", field="role")
    if not isinstance(username, str) or not username.strip():
        raise UserError("name the user to add", field="username")
    name = username.strip()
    user = get_user_model().objects.filter(username=name).first()
    if user is None:
        raise UserError(f"no user called {name!r}", field="username")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        organizes = tournament.organizers.filter(pk=user.pk).exists()
        if role == "organizer":
            if not organizes:
                tournament.scorekeepers.remove(user)
                tournament.organizers.add(user)
                audit(tournament, by, Action.ORGANIZER_ADDED, user=user.get_username())
        elif organizes:
            raise UserError(
                f"{name} organizes this tournament: organizers enter results too", field="username"
            )
        elif tournament.scorekeepers.filter(pk=user.pk).exists():
            raise UserError(f"{name} keeps score here already", field="username", code=ErrorCode.DUPLICATE)
        else:
            tournament.scorekeepers.add(user)
            audit(tournament, by, Action.SCOREKEEPER_ADDED, user=user.get_username())
    return user


def role_remove(*, tournament: Tournament, by: User, username: Any, role: Any) -> None:
    """Take a role away. A tournament keeps at least one organizer."""
    check_organizer(user=by, tournament=tournament)
    if role not in ROLES:
        raise UserError(f"role is one of {', '.join(ROLES)}", field="role")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        holders = tournament.organizers if role == "organizer" else tournament.scorekeepers
        user = holders.filter(username=username).first() if isinstance(username, str) else None
        if user is None:
            raise NotFound(f"{username} is not a {role} of this tournament", field="username")
        if role == "organizer" and tournament.organizers.count() == 1:
            raise StateConflict("a tournament keeps at least one organizer: add another one first")
        holders.remove(user)
        removed = Action.ORGANIZER_REMOVED if role == "organizer" else Action.SCOREKEEPER_REMOVED
        audit(tournament, by, removed, user=user.get_username())


def tournament_schedule(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Set the event's clock: `time_zone` (an IANA name), `starts_at`, `checkin_opens_at` (empty: no
    check-in; else before the start) and `round_times` (planned starts of rounds 1, 2, ...; an empty entry
    leaves that round without one; each after the one before and not before the start).

    Times are datetimes or text; text without an offset is a local time of the event's zone (the new one
    when `time_zone` changes in the same call). Times not given keep their instant. The start and check-in
    are fixed once the tournament has started; round times and the zone change until it is finished."""
    check_organizer(user=by, tournament=tournament)
    unknown = sorted(set(changes) - set(SCHEDULE))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    zone = clock.check_zone(changes.get("time_zone", tournament.time_zone))
    times = {
        name: clock.to_instant(changes[name], zone, field=name)
        for name in ("starts_at", "checkin_opens_at")
        if name in changes
    }
    round_times = None
    if "round_times" in changes:
        given = changes["round_times"]
        if not isinstance(given, list | tuple) or len(given) > SETTING_BOUNDS["rounds"].high:
            raise UserError(
                f"round times are a list of at most {SETTING_BOUNDS['rounds'].high} times",
                field="round_times",
            )
        round_times = [clock.to_instant(value, zone, field="round_times") for value in given]
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("the tournament is finished: its times are history", field="status")
        started = tournament.status == Tournament.Status.RUNNING
        if started and any(times[name] != getattr(tournament, name) for name in times):
            raise StateConflict(
                "the start and check-in are fixed once the tournament has started", field="status"
            )
        starts = times.get("starts_at", tournament.starts_at)
        opens = times.get("checkin_opens_at", tournament.checkin_opens_at)
        if opens is not None and starts is None:
            raise UserError("set the start time too: check-in opens before it", field="checkin_opens_at")
        if opens is not None and opens >= cast(datetime, starts):  # set: checked just above
            raise UserError("check-in must open before the start time", field="checkin_opens_at")
        if round_times is not None:
            _check_round_times(round_times, starts)
        elif starts is not None and "starts_at" in times:
            first = tournament.round_times.order_by("number").first()
            if first is not None and first.starts_at < starts:
                raise UserError(f"round {first.number} would start before the tournament", field="starts_at")
        before: dict[str, Any] = {
            "time_zone": tournament.time_zone,
            "starts_at": tournament.starts_at,
            "checkin_opens_at": tournament.checkin_opens_at,
        }
        after: dict[str, Any] = {"time_zone": zone, "starts_at": starts, "checkin_opens_at": opens}
        if round_times is not None:
            planned = dict(tournament.round_times.values_list("number", "starts_at"))
            before["round_times"] = [planned.get(number) for number in range(1, max(planned, default=0) + 1)]
            after["round_times"] = list(round_times)
            while after["round_times"] and after["round_times"][-1] is None:
                after["round_times"].pop()
        changed = diff(before, after)
        if changed:
            audit(tournament, by, Action.SETTINGS_CHANGED, changes=changed)
        tournament.time_zone = zone
        tournament.starts_at = starts
        tournament.checkin_opens_at = opens
        tournament.save(update_fields=["time_zone", "starts_at", "checkin_opens_at"])
        if round_times is not None:
            tournament.round_times.all().delete()
            RoundTime.objects.bulk_create(
                RoundTime(tournament=tournament, number=number, starts_at=instant)
                for number, instant in enumerate(round_times, start=1)
                if instant is not None
            )
    return tournament


def _check_round_times(round_times: list, starts: Any) -> None:
    previous = None
    for number, instant in enumerate(round_times, start=1):
        if instant is None:
            continue
        if starts is not None and instant < starts:
            raise UserError(f"round {number} starts before the tournament", field="round_times")
        if previous is not None and instant <= previous[1]:
            raise UserError(f"round {number} starts no later than round {previous[0]}", field="round_times")
        previous = (number, instant)


def _move_status(
    tournament: Tournament, by: User, allowed: Sequence[str], target: str, action: str
) -> Tournament:
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in allowed:
            raise StateConflict(
                f"a tournament in {tournament.get_status_display().lower()} cannot move to "
                f"{Tournament.Status(target).label.lower()}",
                field="status",
            )
        tournament.status = target
        tournament.save(update_fields=["status"])
        audit(tournament, by, action)
    return tournament


def tournament_open_registration(*, tournament: Tournament, by: User) -> Tournament:
    return _move_status(
        tournament, by, [Tournament.Status.DRAFT], Tournament.Status.REGISTRATION, Action.REGISTRATION_OPENED
    )


def tournament_start(
    *,
    tournament: Tournament,
    by: User,
    confirm: Any = False,
    dropped: Sequence[int] | None = None,
    promoted: Sequence[int] | None = None,
) -> Tournament:
    """Close registration and start: players without a seed are seeded by rating after the seeded ones.

    With check-in, starting carries out the start's plan (`selectors.start_plan`): registered players who
    did not check in become no-shows, checked-in waitlisted players move up in waitlist order up to the
    cap. It asks for `confirm`; `dropped` and `promoted` (player ids) are what the organizer was shown, and
    a plan that changed since (someone checked in meanwhile) is refused, to be looked at again. Seeds close
    up over the no-shows' (1, 2, 4 → 1, 2, 3), keeping their order. Without check-in, neither applies."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise StateConflict("the tournament has already started", field="status")
        plan = start_plan(tournament)
        if plan.check_in:
            if confirm is not True:
                raise UserError(
                    f"check-in is on: starting drops {len(plan.dropped)} no-show(s) and moves "
                    f"{len(plan.promoted)} up from the waitlist; look at the start preview and confirm",
                    field="confirm",
                )
            for shown, planned in ((dropped, plan.dropped), (promoted, plan.promoted)):
                if shown is not None and sorted(shown) != sorted(reg.player_id for reg in planned):
                    raise StateConflict(
                        "check-ins changed since the preview: look at the start preview again"
                    )
        minimum = max(2, seam.table_spec(tournament).minimum)
        if len(plan.starting) < minimum:
            raise StateConflict(f"a tournament needs at least {minimum} registered players to start")
        if tournament.format == Tournament.Format.STAGES and tournament.cut_size is not None:
            _check_cut_fits(
                tournament,
                tournament.cut_size,
                players=len(plan.starting),
                advance=tournament.advance,
                who="starting",
            )
        if plan.check_in:
            for reg in plan.dropped:
                reg.status, reg.seed, reg.left_after_round = Registration.Status.NO_SHOW, None, 0
            for reg in plan.promoted:
                reg.status = Registration.Status.ACTIVE
            Registration.objects.bulk_update(
                plan.dropped + plan.promoted, ["status", "seed", "left_after_round"]
            )
            _close_seeds(tournament)
        _fill_seeds(tournament)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        audit(
            tournament,
            by,
            Action.STARTED,
            players=len(plan.starting),
            no_shows=[reg.player.name for reg in plan.dropped],
            moved_up=[reg.player.name for reg in plan.promoted],
        )
    return tournament


def _close_seeds(tournament: Tournament) -> None:
    """Number the active players' seeds 1, 2, ... in their order (after no-shows left gaps)."""
    seeded = list(
        tournament.registrations.filter(status=Registration.Status.ACTIVE, seed__isnull=False).order_by(
            "seed"
        )
    )
    if all(reg.seed == number for number, reg in enumerate(seeded, start=1)):
        return
    tournament.registrations.filter(pk__in=[reg.pk for reg in seeded]).update(seed=None)
    for number, reg in enumerate(seeded, start=1):
        reg.seed = number
    Registration.objects.bulk_update(seeded, ["seed"])


def tournament_finish(*, tournament: Tournament, by: User) -> Tournament:
    """End a running tournament early (it also ends by itself when its last round completes)."""
    check_organizer(user=by, tournament=tournament)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status != Tournament.Status.RUNNING:
            raise StateConflict("only a running tournament can be finished", field="status")
        last = last_round(tournament)
        if last is not None and last.status != Round.Status.COMPLETE:
            raise StateConflict(f"round {last.number} is not complete: complete or discard it first")
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        audit(tournament, by, Action.FINISHED, after_round=last.number if last else 0, early=True)
        events.emit(events.tournament_finished, tournament_id=tournament.pk)
    return tournament


def _rating_order(tournament: Tournament, registrations: list[Registration]) -> list[Registration]:
    """Registrations by conservative rating in the game's people pool (best first); unrated players after,
    in the order they registered."""
    ratings = dict(
        Rating.objects.filter(
            pool__kind="people",
            pool__game_id=tournament.game_id,
            player_id__in=[reg.player_id for reg in registrations],
        ).values_list("player_id", "conservative")
    )
    return sorted(
        registrations,
        key=lambda reg: (
            reg.player_id not in ratings,
            -ratings.get(reg.player_id, 0.0),
            reg.created_at,
            reg.pk,
        ),
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
    *, tournament: Tournament, by: User, method: str, order: Sequence[int] | None = None
) -> list[Registration]:
    """Seed every active player, by rating ("rating") or in the given order of player ids ("hand").
    Only before round 1 is generated."""
    check_organizer(user=by, tournament=tournament)
    if method not in ("rating", "hand"):
        raise UserError("seed by 'rating' or by 'hand'", field="method")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.status == Tournament.Status.FINISHED or tournament.round_set.exists():
            raise StateConflict("seeds are fixed once round 1 is generated", field="status")
        active = list(tournament.registrations.filter(status=Registration.Status.ACTIVE))
        if method == "rating":
            ordered = _rating_order(tournament, active)
        else:
            by_player = {reg.player_id: reg for reg in active}
            if (
                not isinstance(order, list | tuple)
                or not all(is_int(pid) for pid in order)
                or sorted(order) != sorted(by_player)
            ):
                raise UserError("list every registered player's id once, top seed first", field="order")
            ordered = [by_player[pid] for pid in order]
        tournament.registrations.update(seed=None)
        for seed, reg in enumerate(ordered, start=1):
            reg.seed = seed
        Registration.objects.bulk_update(ordered, ["seed"])
        audit(tournament, by, Action.SEEDED, method=method, players=len(ordered))
    return ordered
