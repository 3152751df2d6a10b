"""The match pages, under the `matches` namespace: the list is `league.matches`' page, the others show or
write results (`league.results.views`); their URL module lives in the higher of the two apps."""

from django.urls import path

from league.matches import views as match_views
from league.results import views

app_name = "matches"
urlpatterns = [
    path("", match_views.match_index, name="list"),
    path("new/", views.match_new, name="new"),
    path("<int:pk>/", views.match_page, name="detail"),
    path("<int:pk>/result/", views.result_entry, name="result"),
]
