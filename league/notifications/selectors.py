"""Reads of notifications and webhooks for pages and the API; each a fixed number of queries.

A webhook lasts as long as its owner's role: an organizer of its tournament (or site staff) for a
tournament's webhook, site staff for a bot league's, and an active account either way. Once the role is gone
the owner no longer sees the webhook or its deliveries, and nothing more is sent to it (docs/webhooks.md).
"""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, Q, QuerySet

from league.notifications.models import Attempt, Delivery, Notification, Webhook
from league.seasons.models import Season
from league.seasons.selectors import is_club_organizer
from league.tournaments.models import Tournament
from league.tournaments.selectors import is_organizer


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def inbox(user: User) -> QuerySet[Notification]:
    """The user's notifications, newest first."""
    return Notification.objects.filter(user=user).order_by("-created_at", "-id")


def webhook_role_holds(webhook: Webhook) -> bool:
    """Whether the webhook's owner still holds the role it was registered under (the module docstring); a
    cancelled tournament's webhooks send nothing more, as if no one held it."""
    owner = webhook.owner
    if not owner.is_active:
        return False
    if webhook.tournament_id is not None:
        tournament = cast(Tournament, webhook.tournament)  # its id is set, so it is one
        return tournament.status != Tournament.Status.CANCELLED and is_organizer(owner, tournament)
    if webhook.season_id is not None:
        return is_club_organizer(owner, cast(Season, webhook.season).club)
    return owner.is_staff


def webhooks_of(user: User) -> QuerySet[Webhook]:
    """The user's own webhooks whose role they still hold, newest first, with what they are for and how many
    deliveries each made."""
    mine = Webhook.objects.filter(owner=user)
    if not user.is_staff:
        mine = mine.filter(
            Q(tournament__in=Tournament.objects.filter(organizers=user))
            | Q(season__club__in=user.clubs_organized.all())
        )
    return (
        mine.select_related("tournament", "league", "season")
        .annotate(delivery_count=Count("deliveries"))
        .order_by("-created_at", "-id")
    )


def deliveries_of(webhook: Webhook) -> QuerySet[Delivery]:
    """A webhook's deliveries, newest first, each with its attempts in order."""
    return (
        Delivery.objects.filter(webhook=webhook)
        .prefetch_related(Prefetch("attempts", queryset=Attempt.objects.order_by("number")))
        .order_by("-created_at", "-id")
    )
