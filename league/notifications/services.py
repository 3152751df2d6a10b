"""Writes of notifications: store one per user and cause (run by the tasks after the action committed), mail
one, mark them read, set a user's mail preference. See `league.notifications.models`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from league.bots.models import BotDefinition, BotLeague
from league.bots.selectors import voided_match
from league.core.bidi import isolated
from league.core.errors import UserError
from league.matches.models import MatchSeat
from league.notifications.models import Kind, LinkMail, MailPreference, Notification
from league.players.models import Player
from league.results.models import ResultReport
from league.tournaments.models import PrivateLink, Registration, Table, Tournament
from league.tournaments.report_selectors import through_text

MAX_IDS = 500
PLAYED = (Registration.Status.ACTIVE, Registration.Status.DROPPED, Registration.Status.NO_SHOW)
TEXT_LIMIT = 300  # characters of a notification, as its column stores


def _table_name(table: Table) -> str:
    return f"round {table.round.number}, table {table.physical}" + (
        f" ({isolated(table.label)})" if table.label else ""
    )


def _round_link(tournament: Tournament, table: Table) -> str:
    return reverse("tournaments:round", args=[tournament.slug, table.round.number])


def _store(
    kind: str, rows: Iterable[tuple[int, str, str, str, Tournament | None, Table | None]]
) -> list[int]:
    """Store the rows not stored yet (user id, key, text, link, tournament, table); the ids of this cause's
    notifications whose mail is due (not sent yet, the user wants it and has an address). Texts hold names
    between Unicode isolates (`league.core.bidi`): mails send them so, the inbox shows them in `<bdi>`, the
    API strips them."""
    new = [
        Notification(
            user_id=user_id,
            kind=kind,
            key=key,
            text=text[:300],
            link=link,
            tournament=tournament,
            table=table,
        )
        for user_id, key, text, link, tournament, table in rows
    ]
    if not new:
        return []
    Notification.objects.bulk_create(new, ignore_conflicts=True)
    keys = Q()
    for row in new:
        keys |= Q(user_id=row.user_id, key=row.key)
    due = Notification.objects.filter(keys, emailed_at__isnull=True).select_related("user").order_by("pk")
    return [note.pk for note in due if wants_mail(note.user, note.kind)]


def _tournament(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def _users_at(match_ids: list[int]) -> dict[int, list[int]]:
    """Match id → the user ids of its seated players who have an account."""
    users: dict[int, list[int]] = {}
    seats = MatchSeat.objects.filter(match_id__in=match_ids, player__user__isnull=False).order_by(
        "match", "seat"
    )
    for match_id, user_id in seats.values_list("match_id", "player__user_id"):
        users.setdefault(match_id, []).append(user_id)
    return users


def notify_table_ready(*, tournament_id: int, table_ids: list[int]) -> list[int]:
    """'Your table is ready' to each seated player with an account; ids of the notifications to mail."""
    tournament = _tournament(tournament_id)
    if tournament is None:
        return []
    tables = list(
        Table.objects.filter(
            pk__in=table_ids, round__tournament=tournament, match__isnull=False
        ).select_related("round")
    )
    # Every table here has its match (the filter above).
    users = _users_at([cast(int, table.match_id) for table in tables])
    return _store(
        Kind.TABLE_READY,
        (
            (
                user_id,
                f"table_ready:{table.pk}",
                f"Your table is ready in {isolated(tournament.name)}: {_table_name(table)}.",
                _round_link(tournament, table),
                tournament,
                table,
            )
            for table in tables
            for user_id in users.get(cast(int, table.match_id), [])
        ),
    )


def notify_table_ready_links(*, tournament_id: int, table_ids: list[int]) -> list[int]:
    """'Your table is out' for each seated player whose live private link has an email address (players
    without an account); ids of the link mails due (stored once per link and table, not sent yet)."""
    tables = Table.objects.filter(
        pk__in=table_ids, round__tournament_id=tournament_id, match__isnull=False
    ).values_list("pk", "match__seats__player_id")
    seated: dict[int, list[int]] = {}
    for table_id, player_id in tables:
        seated.setdefault(player_id, []).append(table_id)
    links = PrivateLink.objects.filter(
        registration__tournament_id=tournament_id,
        registration__player_id__in=list(seated),
        revoked_at__isnull=True,
    ).exclude(email="")
    rows = [
        LinkMail(link_id=link.pk, table_id=table_id)
        for link in links.only("pk", "registration__player_id").select_related("registration")
        for table_id in seated[link.registration.player_id]
    ]
    LinkMail.objects.bulk_create(rows, ignore_conflicts=True)
    keys = Q()
    for row in rows:
        keys |= Q(link_id=row.link_id, table_id=row.table_id)
    return (
        list(LinkMail.objects.filter(keys, emailed_at__isnull=True).values_list("pk", flat=True))
        if rows
        else []
    )


def link_mail(*, link_mail_id: int) -> bool:
    """Send one private link's "your table is out" mail unless it was sent or the link lost its address
    (revoked, or the holder cleared it); True if sent. A failing mail server raises (the task retries)."""
    row = LinkMail.objects.filter(pk=link_mail_id).select_related("link", "table__round__tournament").first()
    if row is None or row.emailed_at is not None or row.link.revoked_at is not None or not row.link.email:
        return False
    table = row.table
    tournament = table.round.tournament
    text = f"Your table is out in {isolated(tournament.name)}: {_table_name(table)}."
    send_mail(
        subject=f"Pecking Order: {text}",
        message=(
            f"{text}\n\nOpen your private link to see who you play and to report the result.\n\n"
            "You get this mail because you left this address on your private link; clear it there to stop."
        ),
        from_email=None,
        recipient_list=[row.link.email],
    )
    LinkMail.objects.filter(pk=row.pk).update(emailed_at=timezone.now())
    return True


def notify_confirm(*, tournament_id: int, table_id: int, report_id: int, user_ids: list[int]) -> list[int]:
    """'A result waits for your confirmation' to each user named by the report."""
    tournament = _tournament(tournament_id)
    table = (
        Table.objects.filter(pk=table_id, round__tournament_id=tournament_id).select_related("round").first()
    )
    if tournament is None or table is None:
        return []
    known = get_user_model().objects.filter(pk__in=list(user_ids)[:MAX_IDS]).values_list("pk", flat=True)
    # At a tie across the cut, who the reporter says goes through: the confirmer hears it first here.
    advancing = (ResultReport.objects.filter(pk=report_id).values_list("advancing", flat=True).first()) or []
    names = dict(Player.objects.filter(pk__in=advancing).values_list("pk", "name"))
    through = through_text([isolated(names[pid]) for pid in advancing if pid in names])
    text = f"A result waits for your confirmation in {isolated(tournament.name)}: {_table_name(table)}." + (
        f" The report says {through}." if through else ""
    )
    return _store(
        Kind.CONFIRM,
        (
            (
                user_id,
                f"confirm:{report_id}",
                text,
                _round_link(tournament, table),
                tournament,
                table,
            )
            for user_id in known
        ),
    )


def organizer_ids(tournament: Tournament) -> list[int]:
    """The users who organize `tournament` (its creator and the organizers added), not site staff at large."""
    ids = set(tournament.organizers.values_list("pk", flat=True))
    if tournament.created_by_id:
        ids.add(tournament.created_by_id)
    return sorted(ids)


def notify_disputed(*, tournament_id: int, table_id: int, dispute_id: int) -> list[int]:
    """'A table is disputed' to the tournament's organizers."""
    tournament = _tournament(tournament_id)
    table = (
        Table.objects.filter(pk=table_id, round__tournament_id=tournament_id).select_related("round").first()
    )
    if tournament is None or table is None:
        return []
    return _store(
        Kind.DISPUTED,
        (
            (
                user_id,
                f"dispute:{dispute_id}",
                f"A result is disputed in {isolated(tournament.name)}: {_table_name(table)}. "
                "Settle it with an organizer entry.",
                _round_link(tournament, table),
                tournament,
                table,
            )
            for user_id in organizer_ids(tournament)
        ),
    )


def round_waiting_text(
    tournament: Tournament, round_number: int, warnings: int, disputes: int, problem: str
) -> str:
    """What the organizers read when a round the tournament started by itself waits for them."""
    name = isolated(tournament.name)
    if problem:
        return f"Round {round_number} of {name} could not be generated by itself: {problem}"
    reasons = [
        f"{count} {noun}{'' if count == 1 else 's'}"
        for count, noun in ((warnings, "warning"), (disputes, "open dispute"))
        if count
    ]
    return (
        f"Round {round_number} of {name} waits as a draft ({' and '.join(reasons)}): check it, then "
        "publish it."
    )


def notify_round_waiting(
    *, tournament_id: int, round_number: int, warnings: int, disputes: int, problem: str
) -> list[int]:
    """'A round waits for you' to the tournament's organizers (big days' `auto_next_round`)."""
    tournament = _tournament(tournament_id)
    if tournament is None:
        return []
    exists = tournament.round_set.filter(number=round_number).exists()
    link = (
        reverse("tournaments:round", args=[tournament.slug, round_number])
        if exists
        else reverse("tournaments:detail", args=[tournament.slug])
    )
    text = round_waiting_text(tournament, round_number, warnings, disputes, problem)
    return _store(
        Kind.ROUND_WAITING,
        (
            (user_id, f"round-waiting:{tournament.pk}:{round_number}", text, link, tournament, None)
            for user_id in organizer_ids(tournament)
        ),
    )


DISPUTE_SETTLED_TEXT = " Settled by an organizer's entry."


def notify_dispute_settled(*, dispute_ids: list[int]) -> list[int]:
    """The organizers' "a result is disputed" notifications of settled disputes become read and say so;
    nothing is mailed (an empty list)."""
    now = timezone.now()
    rows = Notification.objects.filter(kind=Kind.DISPUTED, key__in=[f"dispute:{pk}" for pk in dispute_ids])
    for notification in rows:
        if not notification.text.endswith(DISPUTE_SETTLED_TEXT):
            shortened = notification.text.removesuffix(" Settle it with an organizer entry.")
            notification.text = (shortened + DISPUTE_SETTLED_TEXT)[
                : Notification._meta.get_field("text").max_length
            ]
        notification.read_at = notification.read_at or now
        notification.save(update_fields=["text", "read_at"])
    return []


def notify_finished(*, tournament_id: int) -> list[int]:
    """'The tournament finished' to its players who have an account (withdrawn and waitlisted ones
    excluded)."""
    tournament = _tournament(tournament_id)
    if tournament is None:
        return []
    users = Registration.objects.filter(
        tournament=tournament, status__in=PLAYED, player__user__isnull=False
    ).values_list("player__user_id", flat=True)
    link = reverse("tournaments:detail", args=[tournament.slug])
    return _store(
        Kind.FINISHED,
        (
            (
                user_id,
                f"finished:{tournament.pk}",
                f"{isolated(tournament.name)} is finished: see the final standings.",
                link,
                tournament,
                None,
            )
            for user_id in users
        ),
    )


def notify_cancelled(*, tournament_id: int) -> list[int]:
    """'The tournament is cancelled' (with the organizer's reason) to the players who entered it and have an
    account: registered, waitlisted, pending or invited ones, and those who played and left."""
    tournament = _tournament(tournament_id)
    if tournament is None or tournament.status != Tournament.Status.CANCELLED:
        return []  # undone before the task ran
    entered = (
        *PLAYED,
        Registration.Status.WAITLISTED,
        Registration.Status.PENDING,
        Registration.Status.INVITED,
    )
    users = Registration.objects.filter(
        tournament=tournament, status__in=entered, player__user__isnull=False
    ).values_list("player__user_id", flat=True)
    link = reverse("tournaments:detail", args=[tournament.slug])
    reason = tournament.cancel_reason
    text = f"{tournament.name} is cancelled: {reason}"
    if len(text) > TEXT_LIMIT:
        text = text[: TEXT_LIMIT - 1] + "…"
    return _store(
        Kind.CANCELLED,
        ((user_id, f"cancelled:{tournament.pk}", text, link, tournament, None) for user_id in users),
    )


def notify_bot_match_voided(*, match_id: int) -> list[int]:
    """'A bot match was voided' to the authors of its external seats' bots and to site staff (a league's or
    a challenge's match voided because its workers were lost, `league.bots.services.leases.leases_reap`).
    Each author is sent to their bot's page, unless they may see where it was played (a league, or their
    challenge)."""
    voided = voided_match(match_id)
    if voided is None:
        return []
    staff = get_user_model().objects.filter(is_staff=True, is_active=True).values_list("pk", flat=True)
    links = {user_id: voided.link for user_id in staff}
    for user_id, bot_link in voided.author_links.items():
        if user_id not in links:
            public = voided.challenger_id is None or voided.challenger_id == user_id
            links[user_id] = voided.link if public else bot_link
    bots = f" ({', '.join(isolated(bot) for bot in voided.bots)})" if voided.bots else ""
    text = f"Match {voided.match_id} of {isolated(voided.owner)}{bots} was voided: {voided.reason}."
    return _store(
        Kind.BOT_MATCH_VOIDED,
        (
            (user_id, f"bot_match_voided:{voided.match_id}", text, link, None, None)
            for user_id, link in sorted(links.items())
        ),
    )


def notify_bot_checked(*, bot_id: int) -> list[int]:
    """'Your upload is ready' or 'your upload was refused: why' to the author of an uploaded bot version."""
    bot = BotDefinition.objects.filter(pk=bot_id, created_by__isnull=False).first()
    if bot is None or bot.state in (BotDefinition.State.CHECKING, BotDefinition.State.VALIDATING):
        return []
    if bot.state == BotDefinition.State.READY:
        text = f"{bot.label} passed the check of uploads: it can enter ladders, leagues and challenges now."
    elif bot.state == BotDefinition.State.FAILING:
        text = f"{bot.label} failed its validation matches: {bot.refusal}"
        if len(text) > 300:
            text = text[:299] + "…"
    else:
        text = f"{bot.label} was refused by the check of uploads: {bot.refusal}"
        if len(text) > 300:
            text = text[:299] + "…"  # the bot's page shows the whole reason
    author = cast(int, bot.created_by_id)  # an upload's, filtered above on created_by
    row = (author, f"bot_checked:{bot.pk}", text, bot.get_absolute_url(), None, None)
    return _store(Kind.BOT_CHECKED, [row])


def notify_bot_forfeited(
    *, bot_id: int, league_id: int, match_id: int, streak: int, withdrawn: bool
) -> list[int]:
    """Tell the author of a bot that its seat forfeited a rated match, once per run of forfeits in a row (the
    first of the run), and again when a ladder withdraws it for the run's length."""
    bot = BotDefinition.objects.filter(pk=bot_id, created_by__isnull=False).first()
    league = BotLeague.objects.filter(pk=league_id).first()
    if bot is None or league is None:
        return []
    if withdrawn:
        text = (
            f"{bot.label} forfeited {streak} rated matches in a row in {league.name} and was withdrawn from "
            "it: its logs say why; upload a corrected version, which takes its place."
        )
        key, link = f"bot_withdrawn:{bot.pk}:{league.pk}", bot.get_absolute_url()
    else:
        text = f"{bot.label} forfeited rated match {match_id} in {league.name}: its logs say why."
        if league.is_ladder and league.withdraw_after_forfeits:
            text += (
                " Further forfeits in a row are not told one by one; after "
                f"{league.withdraw_after_forfeits} in a row the ladder withdraws it."
            )
        key, link = f"bot_forfeited:{bot.pk}:{match_id}", reverse("bots:bot-logs", kwargs={"pk": bot.pk})
    author = cast(int, bot.created_by_id)  # filtered above on created_by
    return _store(Kind.BOT_FORFEITED, [(author, key, text, link, None, None)])


def notify_invited(*, tournament_id: int, player_id: int) -> list[int]:
    """'You are invited' to the invited player's account, while the invitation stands."""
    tournament = _tournament(tournament_id)
    if tournament is None:
        return []
    invited = Registration.objects.filter(
        tournament=tournament,
        player_id=player_id,
        status=Registration.Status.INVITED,
        player__user__isnull=False,
    ).values_list("player__user_id", flat=True)
    link = reverse("tournaments:detail", args=[tournament.slug])
    return _store(
        Kind.INVITED,
        (
            (
                user_id,
                f"invited:{tournament.pk}",
                f"You are invited to {isolated(tournament.name)}: accept or decline on its page.",
                link,
                tournament,
                None,
            )
            for user_id in invited
        ),
    )


def preference_of(user: User) -> MailPreference:
    """The user's mail preference (unsaved default when they never set one: every kind is mailed)."""
    return MailPreference.objects.filter(user=user).first() or MailPreference(user=user)


def wants_mail(user: User, kind: str) -> bool:
    if not user.is_active or not user.email:
        return False
    preference = preference_of(user)
    return preference.email_enabled and kind not in preference.muted_kinds


def notification_mail(*, notification_id: int) -> bool:
    """Mail one notification unless it was mailed already or its user opted out; True if sent. A failing
    mail server raises (the task retries it)."""
    note = Notification.objects.filter(pk=notification_id).select_related("user").first()
    if note is None or note.emailed_at is not None or not wants_mail(note.user, note.kind):
        return False
    base = getattr(settings, "SITE_URL", "").rstrip("/")
    body = (
        f"{note.text}\n\n{base}{note.link}\n\n"
        f"You get this mail because you have an account at Pecking Order. Choose which notifications are "
        f"mailed to you on {base}{reverse('notifications:inbox')}"
    )
    send_mail(
        subject=f"Pecking Order: {note.text[:120]}",
        message=body,
        from_email=None,
        recipient_list=[note.user.email],
    )
    Notification.objects.filter(pk=note.pk).update(emailed_at=timezone.now())
    return True


def _check_ids(ids: Any) -> list[int]:
    if not isinstance(ids, list | tuple) or len(ids) > MAX_IDS:
        raise UserError(f"give the notification ids as a list of at most {MAX_IDS}", field="ids")
    if not all(isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**62 for value in ids):
        raise UserError("notification ids are positive whole numbers", field="ids")
    return list(ids)


def notifications_mark_read(*, user: User | AnonymousUser, ids: Any = None, every: bool = False) -> int:
    """Mark the user's own notifications read (the ids given, or every unread one); how many changed.
    Ids of other users' notifications are ignored (they are not the user's to mark)."""
    if not user.is_authenticated:
        raise UserError("sign in to read your notifications")
    mine = Notification.objects.filter(user=user, read_at__isnull=True)
    if not every:
        mine = mine.filter(pk__in=_check_ids(ids))
    with transaction.atomic():
        return mine.update(read_at=timezone.now())


def mail_preference_set(*, user: User, email_enabled: bool, muted_kinds: Any) -> MailPreference:
    if not isinstance(muted_kinds, list | tuple) or not all(kind in Kind.values for kind in muted_kinds):
        raise UserError(f"muted kinds are among {', '.join(Kind.values)}", field="muted_kinds")
    preference, _ = MailPreference.objects.update_or_create(
        user=user,
        defaults={"email_enabled": bool(email_enabled), "muted_kinds": sorted(set(muted_kinds))},
    )
    return preference
