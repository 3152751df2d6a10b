from django.urls import path

from league.ratings import views

app_name = "ratings"
urlpatterns = [
    path("pools/<int:pk>/calibration/", views.pool_calibration_page, name="calibration"),
    path("<slug:game_id>/", views.game_leaderboard, name="leaderboard"),
]
