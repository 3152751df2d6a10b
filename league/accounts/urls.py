"""Account pages under the `accounts` namespace: /accounts/... for the account itself, /me/ for my page,
/claims/... for claim links."""

from django.urls import path

from league.accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.sign_up, name="signup"),
    path("accounts/signup/sent/", views.sign_up_sent, name="signup-sent"),
    path("accounts/signup/<str:token>/", views.sign_up_confirm, name="signup-confirm"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", views.log_out, name="logout"),
    path("accounts/password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("accounts/password/reset/", views.PasswordResetView.as_view(), name="password-reset"),
    path("accounts/password/reset/sent/", views.PasswordResetSentView.as_view(), name="password-reset-sent"),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    path("accounts/delete/", views.account_delete, name="delete"),
    path("me/", views.me, name="me"),
    path("me/player/", views.me_player_create, name="player-create"),
    path("me/token/", views.api_token_create, name="token-create"),
    path("me/token/revoke/", views.api_token_revoke, name="token-revoke"),
    path("claims/new/", views.claim_link_issue, name="claim-issue"),
    path("claims/<str:token>/", views.claim, name="claim"),
]
