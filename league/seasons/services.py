"""Writes for clubs and seasons. Every write checks its permission here: site staff create clubs and name
their organizers; a club's organizers create the club's events and seasons, set a season's rules, add events
(their club's at once, another club's by invitation, which that club's organizers accept or decline) and
freeze a finished season.

A club's organizers are organizers of every event of the club: adding one adds them to each event's
organizers (the tournaments' one rule of reach then covers the club's walk-ins, judges and webhooks), and
an event that joins the club gets the club's organizers.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from league.core.errors import Conflict, Forbidden, NotFound, UserError
from league.core.events import emit, season_table_changed
from league.core.names import check_name
from league.core.slugs import free_slug
from league.ratings.refits import refit_queue
from league.seasons import points
from league.seasons.models import Club, ClubEvent, Season, SeasonEvent
from league.seasons.selectors import (
    event_versions,
    is_club_organizer,
    line_json,
    rules_of,
    season_lines,
)
from league.tournaments.models import Tournament
from league.tournaments.selectors import is_organizer
from league.tournaments.services import tournament_clone

SLUG_LENGTH = 120
MAX_PLACES = 256


def _club_slug(name: str) -> str:
    return free_slug(name, rows=Club.objects.all(), length=SLUG_LENGTH, fallback="club")


def _season_slug(name: str) -> str:
    return free_slug(name, rows=Season.objects.all(), length=SLUG_LENGTH, fallback="season")


def check_club_organizer(user: User | AnonymousUser | None, club: Club) -> None:
    if not is_club_organizer(user, club):
        raise Forbidden("only the club's organizers (and site staff) can do this")


def club_create(*, by: User | AnonymousUser, name: Any) -> Club:
    """A new club (site staff only); its creator becomes its first organizer."""
    if not by.is_authenticated or not by.is_staff:
        raise Forbidden("only site staff create clubs")
    cleaned = check_name(name, what="a club", max_length=120)
    with transaction.atomic():
        club = Club.objects.create(name=cleaned, slug=_club_slug(cleaned))
        club.organizers.add(by)
    return club


def club_organizer_add(*, club: Club, by: User | AnonymousUser, username: Any) -> User:
    """Make a user (by user name, any case) an organizer of the club and of each of its events."""
    if not by.is_authenticated or not by.is_staff:
        raise Forbidden("only site staff name a club's organizers")
    if not isinstance(username, str) or not username.strip():
        raise UserError("give a user name", field="username")
    user = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise UserError(f"nobody has the user name {username.strip()!r}", field="username")
    with transaction.atomic():
        club.organizers.add(user)
        for event in ClubEvent.objects.filter(club=club).select_related("tournament"):
            event.tournament.organizers.add(user)
    return user


def club_event_attach(*, club: Club, by: User | AnonymousUser, tournament: Tournament) -> ClubEvent:
    """Make `tournament` an event of the club: its organizers and the club's may do so; 409 when it belongs
    to another club. The club's organizers become the event's organizers."""
    check_club_organizer(by, club)
    if not is_organizer(by, tournament):
        raise Forbidden("only the event's organizers can give it to a club")
    with transaction.atomic():
        existing = ClubEvent.objects.select_for_update().filter(tournament=tournament).first()
        if existing is not None and existing.club_id != club.pk:
            raise Conflict("this event belongs to another club", field="tournament")
        event, _ = ClubEvent.objects.get_or_create(tournament=tournament, defaults={"club": club})
        tournament.organizers.add(*club.organizers.all())
    return event


def club_event_clone(
    *, club: Club, by: User | AnonymousUser, tournament: Tournament, shift_days: Any = 7
) -> Tournament:
    """The next event of a series: a clone of the club's event (its settings, sign-up and clock moved by
    `shift_days`), made the club's event and entered in every open season of the club the original is in,
    with the same multiplier. 404 for an event not the club's."""
    check_club_organizer(by, club)
    if not ClubEvent.objects.filter(club=club, tournament=tournament).exists():
        raise NotFound("no such event of the club")
    with transaction.atomic():
        clone = tournament_clone(
            tournament=tournament,
            by=cast(User, by),  # a club organizer: signed in (checked above)
            name=_next_name(tournament.name),
            shift_days=shift_days,
        )
        club_event_attach(club=club, by=by, tournament=clone)
        for entry in SeasonEvent.objects.filter(
            tournament=tournament,
            season__club=club,
            season__frozen_at__isnull=True,
            accepted_at__isnull=False,
        ):
            SeasonEvent.objects.create(
                season_id=entry.season_id,
                tournament=clone,
                multiplier=entry.multiplier,
                accepted_at=timezone.now(),
            )
            emit(season_table_changed, season_id=entry.season_id)
    return clone


def _next_name(name: str) -> str:
    """The series' next name: a trailing number counts up ("Week 1" → "Week 2"), else " (next)"."""
    head, _, last = name.rpartition(" ")
    if head and last.isdigit():
        return f"{head} {int(last) + 1}"
    return f"{name} (next)"[:120]


def _decimal(value: Any, *, field: str, what: str, minimum: Decimal = Decimal(0)) -> Decimal:
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise UserError(f"{what} is a number, e.g. 2.5", field=field) from None
    if not number.is_finite() or number < minimum or number > Decimal("1000000"):
        raise UserError(f"{what} is a number from {minimum} to 1000000", field=field)
    return number.quantize(Decimal("0.01"))


def _optional_int(value: Any, *, field: str, what: str, low: int = 1) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        raise UserError(f"{what} is a whole number", field=field) from None
    if not low <= number <= 10000:
        raise UserError(f"{what} is from {low} to 10000", field=field)
    return number


def _rules(values: dict[str, Any]) -> dict[str, Any]:
    """The season's rule fields from submitted values, checked (400 with the field at fault)."""
    raw = values.get("place_points", [])
    if isinstance(raw, str):
        raw = [part for part in raw.replace(",", " ").split() if part]
    if not isinstance(raw, list) or len(raw) > MAX_PLACES:
        raise UserError(f"points per place: a list of at most {MAX_PLACES} numbers", field="place_points")
    place_points = [str(_decimal(v, field="place_points", what="points for a place")) for v in raw]
    tie_breaks = values.get("tie_breaks", [])
    if isinstance(tie_breaks, str):
        tie_breaks = [part for part in tie_breaks.replace(",", " ").split() if part]
    if not isinstance(tie_breaks, list) or not all(isinstance(t, str) for t in tie_breaks):
        raise UserError("tie-breaks: a list of names", field="tie_breaks")
    qualify_points = values.get("qualify_points")
    cleaned: dict[str, Any] = {
        "place_points": place_points,
        "scale_by_field": bool(values.get("scale_by_field", False)),
        "reference_size": _optional_int(
            values.get("reference_size", 16), field="reference_size", what="the reference size"
        )
        or 16,
        "per_win": _decimal(values.get("per_win", 0) or 0, field="per_win", what="points per win"),
        "participation": _decimal(
            values.get("participation", 0) or 0, field="participation", what="points for taking part"
        ),
        "best_of": _optional_int(values.get("best_of"), field="best_of", what="best of"),
        "minimum_events": (
            _optional_int(
                values.get("minimum_events"), field="minimum_events", what="the minimum attendance", low=0
            )
            or 0
        ),
        "qualify_top": _optional_int(
            values.get("qualify_top"), field="qualify_top", what="qualifying places"
        ),
        "qualify_points": None
        if qualify_points in (None, "")
        else _decimal(qualify_points, field="qualify_points", what="the qualifying points"),
        "tie_breaks": tie_breaks,
        "rank_by": _rank_by(values.get("rank_by", Season.RankBy.POINTS)),
    }
    problems = points.Rules(
        place_points={i: Decimal(v) for i, v in enumerate(place_points, start=1)},
        scale_by_field=cleaned["scale_by_field"],
        reference_size=cleaned["reference_size"],
        per_win=cleaned["per_win"],
        participation=cleaned["participation"],
        best_of=cleaned["best_of"],
        minimum_events=cleaned["minimum_events"],
        qualify_top=cleaned["qualify_top"],
        qualify_points=cleaned["qualify_points"],
        tie_breaks=tie_breaks,
    ).problems()
    if problems:
        raise UserError(problems[0], field="rules")
    return cleaned


def _rank_by(value: Any) -> str:
    if value in (None, ""):
        return Season.RankBy.POINTS
    if value not in Season.RankBy.values:
        raise UserError("rank the table by points or by settled ratings", field="rank_by")
    return str(value)


def _queue_fit(season: Season) -> None:
    """A season ranked by settled ratings gets its first fit from the workers now, not only tonight."""
    if season.rank_by == Season.RankBy.SETTLED and season.frozen_at is None:
        refit_queue("season", season.pk)


def season_create(*, club: Club, by: User | AnonymousUser, name: Any, **rules: Any) -> Season:
    """A new season of the club with its points rules (the club's organizers)."""
    check_club_organizer(by, club)
    cleaned = check_name(name, what="a season", max_length=120)
    values = _rules(rules)
    season = Season.objects.create(club=club, name=cleaned, slug=_season_slug(cleaned), **values)
    _queue_fit(season)
    return season


def season_rules_set(*, season: Season, by: User | AnonymousUser, **rules: Any) -> Season:
    """Change a season's rules (its club's organizers); 409 once frozen."""
    check_club_organizer(by, season.club)
    if season.frozen_at is not None:
        raise Conflict("the season is frozen: its table no longer changes", field="season")
    for key, value in _rules(rules).items():
        setattr(season, key, value)
    season.save()
    _queue_fit(season)
    emit(season_table_changed, season_id=season.pk)
    return season


def season_rank_by_set(*, season: Season, by: User | AnonymousUser, rank_by: Any) -> Season:
    """Rank a season's table by points or by settled ratings (its club's organizers); 409 once frozen. Ranking
    by settled ratings queues the season's fit for the workers."""
    check_club_organizer(by, season.club)
    if season.frozen_at is not None:
        raise Conflict("the season is frozen: its table no longer changes", field="season")
    season.rank_by = _rank_by(rank_by)
    season.save(update_fields=["rank_by"])
    _queue_fit(season)
    emit(season_table_changed, season_id=season.pk)
    return season


def season_event_add(
    *, season: Season, by: User | AnonymousUser, tournament: Tournament, multiplier: Any = 1
) -> SeasonEvent:
    """Add an event to the season with its tier multiplier: the season's club's own event joins at once;
    another club's event (or an event of no club, organized by someone else) is invited and joins when its
    organizers accept."""
    check_club_organizer(by, season.club)
    if season.frozen_at is not None:
        raise Conflict("the season is frozen: its table no longer changes", field="season")
    factor = _decimal(multiplier, field="multiplier", what="the multiplier", minimum=Decimal("0.01"))
    own = ClubEvent.objects.filter(club=season.club, tournament=tournament).exists()
    entry, created = SeasonEvent.objects.get_or_create(
        season=season,
        tournament=tournament,
        defaults={"multiplier": factor, "accepted_at": timezone.now() if own else None},
    )
    if not created:
        raise Conflict("this event is in the season already", field="tournament")
    if entry.accepted_at is not None:
        emit(season_table_changed, season_id=season.pk)
    return entry


def season_event_answer(*, entry: SeasonEvent, by: User | AnonymousUser, accept: Any) -> SeasonEvent | None:
    """The invited event's organizers accept (the event joins) or decline (the invitation goes)."""
    if not is_organizer(by, entry.tournament):
        raise Forbidden("only the event's organizers answer its invitation")
    if entry.accepted_at is not None:
        raise Conflict("this event is in the season already", field="entry")
    if accept is True or accept in ("true", "1", "yes", "accept"):
        entry.accepted_at = timezone.now()
        entry.save(update_fields=["accepted_at"])
        emit(season_table_changed, season_id=entry.season_id)
        return entry
    if accept is False or accept in ("false", "0", "no", "decline"):
        entry.delete()
        return None
    raise UserError("accept is true or false", field="accept")


def season_freeze(*, season: Season, by: User | AnonymousUser) -> Season:
    """Freeze the season's table as it stands (a finished season): later corrections leave it as it was."""
    check_club_organizer(by, season.club)
    if season.frozen_at is not None:
        raise Conflict("the season is frozen already", field="season")
    season.frozen_table = [line_json(line) for line in season_lines(season)]
    season.frozen_versions = event_versions(season)
    season.frozen_at = timezone.now()
    season.save(update_fields=["frozen_table", "frozen_versions", "frozen_at"])
    emit(season_table_changed, season_id=season.pk)
    return season


def season_of(slug: str) -> Season:
    season = Season.objects.select_related("club").filter(slug=slug).first()
    if season is None:
        raise NotFound("no such season")
    return season


__all__ = [
    "club_create",
    "club_event_attach",
    "club_organizer_add",
    "rules_of",
    "season_create",
    "season_event_add",
    "season_event_answer",
    "season_freeze",
    "season_rules_set",
]
