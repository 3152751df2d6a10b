from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in

from league.accounts.sessions import remember_login


class AccountsConfig(AppConfig):
    name = "league.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        user_logged_in.connect(remember_login, dispatch_uid="league.accounts.remember_login")
