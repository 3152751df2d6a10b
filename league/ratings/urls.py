from django.urls import path

from league.ratings import views

app_name = "ratings"
urlpatterns = [path("<slug:game_id>/", views.game_leaderboard, name="leaderboard")]
