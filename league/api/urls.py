from django.urls import include, path
from rest_framework.routers import DefaultRouter

from league.api import (
    accounts,
    bots,
    ladders,
    notifications,
    play,
    private_links,
    seasons,
    tournaments,
    views,
)

router = DefaultRouter()
router.register("players", views.PlayerViewSet, basename="player")
router.register("matches", views.MatchViewSet, basename="match")
router.register("ratings", views.RatingViewSet, basename="rating")
router.register("rating-pools", views.RatingPoolViewSet, basename="rating-pool")
router.register("predictions", views.PredictionViewSet, basename="prediction")
router.register("rating-history", views.RatingHistoryViewSet, basename="rating-history")
router.register("bots", bots.BotViewSet, basename="bot")
router.register("bot-leagues", bots.LeagueViewSet, basename="bot-league")
router.register("ladders", ladders.LadderViewSet, basename="ladder")
router.register("challenges", ladders.ChallengeViewSet, basename="challenge")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")
router.register("clubs", seasons.ClubViewSet, basename="club")
router.register("seasons", seasons.SeasonViewSet, basename="season")
router.register("tournament-rounds", tournaments.RoundViewSet, basename="tournament-round")
router.register("tournament-tables", tournaments.TableViewSet, basename="tournament-table")

urlpatterns = [
    path("games/", views.GameList.as_view(), name="api-games"),
    path("bots/<int:pk>/play/", play.PlayNowView.as_view(), name="api-bot-play"),
    path("me/", accounts.MeView.as_view(), name="api-me"),
    path("me/player/", accounts.MyPlayerView.as_view(), name="api-me-player"),
    path("me/token/", accounts.MyTokenView.as_view(), name="api-me-token"),
    path("claims/", accounts.ClaimIssueView.as_view(), name="api-claims"),
    path("claims/redeem/", accounts.ClaimRedeemView.as_view(), name="api-claims-redeem"),
    path("notifications/", notifications.NotificationList.as_view(), name="api-notifications"),
    path("notifications/read/", notifications.NotificationRead.as_view(), name="api-notifications-read"),
    path("webhooks/", notifications.WebhookList.as_view(), name="api-webhooks"),
    path("webhooks/<int:pk>/", notifications.WebhookDetail.as_view(), name="api-webhook"),
    path(
        "webhooks/<int:pk>/deliveries/",
        notifications.WebhookDeliveries.as_view(),
        name="api-webhook-deliveries",
    ),
    path(
        "tournaments/<int:pk>/private-links/",
        private_links.PrivateLinkList.as_view(),
        name="api-private-links",
    ),
    path(
        "tournaments/<int:pk>/private-links/<int:player_id>/",
        private_links.PrivateLinkDetail.as_view(),
        name="api-private-link",
    ),
    path(
        "tournaments/<int:pk>/venue-address/",
        private_links.VenueAddress.as_view(),
        name="api-venue-address",
    ),
    path("", include(router.urls)),
]
