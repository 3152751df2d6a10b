from django.urls import include, path
from rest_framework.routers import DefaultRouter

from league.api import views

router = DefaultRouter()
router.register("players", views.PlayerViewSet, basename="player")
router.register("matches", views.MatchViewSet, basename="match")
router.register("ratings", views.RatingViewSet, basename="rating")
router.register("rating-history", views.RatingHistoryViewSet, basename="rating-history")

urlpatterns = [
    path("games/", views.GameList.as_view(), name="api-games"),
    path("", include(router.urls)),
]
