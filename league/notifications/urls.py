"""Pages of the `notifications` namespace: the inbox (/notifications/) and my webhooks (/webhooks/)."""

from django.urls import path

from league.notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.inbox, name="inbox"),
    path("notifications/read/", views.mark_read, name="read"),
    path("notifications/read-all/", views.mark_all_read, name="read-all"),
    path("notifications/mail/", views.mail_settings, name="mail"),
    path("webhooks/", views.webhook_list, name="webhooks"),
    path("webhooks/<int:pk>/", views.webhook_detail, name="webhook"),
    path("webhooks/<int:pk>/delete/", views.webhook_delete, name="webhook-delete"),
]
