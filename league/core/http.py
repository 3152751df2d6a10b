"""Request types for views.

A view behind `login_required` takes a `SignedInRequest`: Django's request whose `user` is a signed-in
account, as the decorator ensures before the view runs. The class is a type only: no request is made of it.
"""

from django.contrib.auth.models import User
from django.http import HttpRequest


class SignedInRequest(HttpRequest):
    """The request of a view behind `login_required`: `request.user` is signed in (auth's User, the project's
    user model)."""

    user: User
