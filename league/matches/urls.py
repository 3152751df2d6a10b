from django.urls import path

from league.matches import views

app_name = "matches"
urlpatterns = [
    path("", views.match_index, name="list"),
    path("new/", views.match_new, name="new"),
    path("<int:pk>/", views.match_page, name="detail"),
    path("<int:pk>/result/", views.result_entry, name="result"),
]
