"""A tournament's settings: create, change settings, and the event's clock (time zone, start, check-in,
round times). Settings are checked whole (`check_settings`) before anything is written; after the start
only a stage sequence's cut may change, until it is drawn."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from games.core.errors import OptionError
from league.core.bounds import Bounds
from league.core.catalogue import game_spec
from league.core.errors import UserError
from league.core.names import check_name, check_text
from league.core.slugs import free_slug
from league.tournaments import clock, seam
from league.tournaments.errors import NotOrganizer, StateConflict
from league.tournaments.models import Registration, Round, RoundTime, Tournament, default_time_zone
from league.tournaments.services.audit import Action, audit, diff
from league.tournaments.services.checks import check_cut_fits, check_points, top_cut_problem
from league.tournaments.services.common import check_organizer, tournament_locked

NAME_MAX_LENGTH = 120
RESERVED_SLUGS = {"new", "login"}  # page URLs under /tournaments/
SLUG_LENGTH = 120  # of the slug column's 130, leaving room for a -N suffix
SETTING_BOUNDS = {  # the whole-number settings; the page form and the API serializer take the same (`limits`)
    "table_size": Bounds(2, 7),  # the game's own player range narrows it
    "rounds": Bounds(1, 60),
    "cut_size": Bounds(2, 1024),
    "advance": Bounds(1, 6),  # fewer than a table of 7 seats
    "dispute_window_minutes": Bounds(0, 1440),  # up to a day
    "day2_after_round": Bounds(1, 59),  # before the last of at most 60 rounds
}
DAY2_POINTS_LIMIT = 10_000.0  # the most points a Day 2 can ask for
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
    "auto_next_round",
    "day2_after_round",
    "day2_points",
    "venue",
    "description",
)
TEXT_LIMITS = {"venue": 200, "description": 4000}  # characters, as the columns store
SCHEDULE = ("time_zone", "starts_at", "checkin_opens_at", "round_times")
# A started stage sequence's settings that may change until its cut is drawn.
CUT_SETTINGS = ("cut_size", "advance")
# A started Swiss's Day 2 settings that may change until Day 2's first round is drawn.
DAY2_SETTINGS = ("day2_after_round", "day2_points")
# Settings that may change at any time while the event runs.
LIVE_SETTINGS = ("auto_next_round",)


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
    cleaned.update(_check_day2(cleaned, fmt, rounds))
    return cleaned


def _check_day2(cleaned: Mapping[str, Any], fmt: str, rounds: int | None) -> dict[str, Any]:
    """Big days: `auto_next_round` is true or false; a Day 2 (a Swiss's rounds after `day2_after_round`,
    for the players with at least `day2_points` after it) names both, ends Day 1 before the last round,
    and asks for 0 to `DAY2_POINTS_LIMIT` points."""
    auto = cleaned.get("auto_next_round", False)
    if not isinstance(auto, bool):
        raise UserError("auto_next_round must be true or false", field="auto_next_round")
    after, points = cleaned.get("day2_after_round"), cleaned.get("day2_points")
    if after is None and points is None:
        return {"auto_next_round": auto, "day2_after_round": None, "day2_points": None}
    if fmt != Tournament.Format.SWISS:
        raise UserError("a Day 2 follows a Swiss Day 1: it is for the Swiss format", field="day2_after_round")
    if after is None or points is None:
        missing = "day2_after_round" if after is None else "day2_points"
        raise UserError(
            "a Day 2 needs both the last round of Day 1 and the points that qualify for it", field=missing
        )
    SETTING_BOUNDS["day2_after_round"].check(after, "day2_after_round")
    if rounds is not None and after >= rounds:
        raise UserError(
            f"Day 1 ends before the last of the {rounds} rounds: at round {rounds - 1} at the latest",
            field="day2_after_round",
        )
    if isinstance(points, bool) or not isinstance(points, int | float) or points != points:
        raise UserError("day2_points is a number of points, e.g. 9 or 7.5", field="day2_points")
    if not 0 <= points <= DAY2_POINTS_LIMIT:
        raise UserError(f"day2_points is from 0 to {DAY2_POINTS_LIMIT:g}", field="day2_points")
    return {"auto_next_round": auto, "day2_after_round": after, "day2_points": float(points)}


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


# Who besides site staff may create tournaments: the rules of apps above this one (a club's organizers,
# `league.seasons`), each registered in its app's `ready`.
CREATE_HOOKS: list[Callable[[User], bool]] = []


def may_create(user: User | AnonymousUser | None) -> bool:
    """Whether `user` may create tournaments: site staff, or whom a registered rule allows."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or any(allowed(user) for allowed in CREATE_HOOKS)


def tournament_create(
    *, created_by: User, time_zone: Any = None, starts_at: Any = None, **settings: Any
) -> Tournament:
    """Create a draft tournament; its creator becomes its first organizer. Site staff create them, and
    whom `CREATE_HOOKS` allow (a club's organizers).

    Without `scale_points`, points are scaled at pod tables (a table size above 2) and not at 2 seats.
    `time_zone` (default: the site's) and `starts_at` (a local time of that zone, or an instant) set the
    event's clock at once, as `tournament_schedule` would."""
    if not may_create(created_by):
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


def day2_settings_open(tournament: Tournament) -> bool:
    """Whether a started Swiss's Day 2 settings (`DAY2_SETTINGS`) may still change: Day 2 has no round yet
    (a Swiss without a Day 2 may get one until its last round is drawn)."""
    if tournament.status != Tournament.Status.RUNNING or tournament.format != Tournament.Format.SWISS:
        return False
    first = (tournament.day2_after_round or (tournament.rounds or 1) - 1) + 1
    return not Round.objects.filter(tournament=tournament, number__gte=first).exists()


def _check_started_changes(tournament: Tournament, cleaned: Mapping[str, Any], fields: list[str]) -> None:
    """After the start, only the cut's size and advance change, until the cut is drawn, and the cut must fit
    the players still in (StateConflict or UserError otherwise)."""
    allowed = set(LIVE_SETTINGS)
    if cut_settings_open(tournament):
        allowed |= set(CUT_SETTINGS)
    if day2_settings_open(tournament):
        allowed |= set(DAY2_SETTINGS)
    if not set(fields) <= allowed:
        check_settings_open(tournament)
    after = cleaned.get("day2_after_round")
    moved = "day2_after_round" in fields and after is not None
    if moved and Round.objects.filter(tournament=tournament, number__gt=after).exists():
        after = cast(int, after)  # set, as `moved` says
        raise StateConflict(
            f"round {after + 1} is drawn already: Day 2 starts after the last round drawn",
            field="day2_after_round",
        )
    if "cut_size" in fields or "advance" in fields:
        check_cut_fits(
            tournament,
            cleaned["cut_size"],
            players=tournament.registrations.filter(status=Registration.Status.ACTIVE).count(),
            advance=cleaned["advance"],
            who="still in",
        )


def tournament_update(*, tournament: Tournament, by: User, **changes: Any) -> Tournament:
    """Change settings while the tournament has not started (draft or registration); once a stage sequence
    has started, its cut's size and advance until the cut is drawn (`cut_settings_open`); once a Swiss has
    started, its Day 2 until Day 2 is drawn (`day2_settings_open`); `auto_next_round` at any time. A cut
    larger than the places of a capped tournament is refused."""
    check_organizer(user=by, tournament=tournament)
    unknown = sorted(set(changes) - set(SETTINGS))
    if unknown:
        raise UserError(f"unknown setting {', '.join(unknown)}", field=unknown[0])
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        started = tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)
        if started and not (
            set(changes) <= set(LIVE_SETTINGS)
            or cut_settings_open(tournament)
            or day2_settings_open(tournament)
        ):
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


def tournament_names_set(*, tournament: Tournament, by: User, short_names: Any) -> Tournament:
    """Show the players on public pages by first name and initial (`short_names` true: youth and school
    events) or by their full names. A display setting: it changes at any time, the standings and results
    stay as they are; the organizers and scorekeepers keep seeing full names."""
    check_organizer(user=by, tournament=tournament)
    if not isinstance(short_names, bool):
        raise UserError("short_names must be true or false", field="short_names")
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        if tournament.short_names != short_names:
            audit(
                tournament,
                by,
                Action.SETTINGS_CHANGED,
                changes=diff({"short_names": tournament.short_names}, {"short_names": short_names}),
            )
            tournament.short_names = short_names
            tournament.save(update_fields=["short_names"])  # `audit` counted the change to public pages
    return tournament
