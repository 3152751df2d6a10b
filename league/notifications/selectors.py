"""Reads of notifications and webhooks for pages and the API; each a fixed number of queries."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Prefetch, QuerySet

from league.notifications.models import Attempt, Delivery, Notification, Webhook


def unread_count(user: AbstractBaseUser) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def inbox(user: AbstractBaseUser) -> QuerySet[Notification]:
    """The user's notifications, newest first."""
    return Notification.objects.filter(user=user).order_by("-created_at", "-id")


def webhooks_of(user: AbstractBaseUser) -> QuerySet[Webhook]:
    """The user's own webhooks, newest first, with what they are for and how many deliveries each made."""
    return (
        Webhook.objects.filter(owner=user)
        .select_related("tournament", "league")
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
