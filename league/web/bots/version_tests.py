"""Version tests' pages: "is v2 better than v1?", a new test (its author's) and a test's page (its author's
and staff's)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from league.bots import sprt
from league.bots.models import BotDefinition, VersionTest
from league.bots.services import challenges, version_tests
from league.bots.version_test_pages import version_test_page
from league.core.bounds import whole_number
from league.core.catalogue import game_name
from league.core.errors import UserError
from league.core.forms import add_user_error
from league.core.http import SignedInRequest
from league.web.bots.leagues import field_limits


class VersionChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: BotDefinition) -> str:
        return f"{obj.label} · {game_name(obj.game_id)}"


class VersionTestForm(forms.Form):
    v1 = VersionChoiceField(queryset=BotDefinition.objects.none(), label="Version 1 (the one to beat)")
    v2 = VersionChoiceField(queryset=BotDefinition.objects.none(), label="Version 2 (the candidate)")
    elo1 = forms.FloatField(
        label="Elo to detect (H1)",
        initial=sprt.ELO1,
        min_value=version_tests.ELO.low,
        max_value=version_tests.ELO.high,
        help_text="The test tells an improvement of this many logistic Elo from none (H0: 0).",
    )
    max_pairs = forms.IntegerField(
        label="Pairs at most",
        initial=sprt.MAX_PAIRS,
        help_text="Each pair is two unrated matches; the test usually stops long before.",
        **field_limits(version_tests.PAIRS),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        mine = BotDefinition.objects.filter(created_by=user, state=BotDefinition.State.READY).order_by(
            "game_id", "name", "-version"
        )
        self.fields["v1"].queryset = mine
        self.fields["v2"].queryset = mine


@login_required
def version_test_new(request: SignedInRequest) -> HttpResponse:
    initial = {}
    v2_id = whole_number(request.GET.get("v2", ""))
    if v2_id is not None:
        v2 = BotDefinition.objects.filter(pk=v2_id, created_by=request.user).first()
        if v2 is not None:
            initial["v2"] = v2.pk
            if v2.previous_id is not None:
                initial["v1"] = v2.previous_id
    form = VersionTestForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            test = version_tests.version_test_create(
                v1_id=data["v1"].pk,
                v2_id=data["v2"].pk,
                elo1=data["elo1"],
                max_pairs=data["max_pairs"],
                by=request.user,
            )
        except UserError as exc:
            add_user_error(form, exc)
        else:
            messages.success(request, f"Version test queued: is {test.v2.label} better than {test.v1.label}?")
            return redirect(test)
    return render(
        request,
        "bots/version_test_new.html",
        {"form": form, "open_cap": challenges.OPEN_PER_USER, "alpha": sprt.ALPHA, "beta": sprt.BETA},
        status=400 if form.errors else 200,
    )


def version_test_detail(request: HttpRequest, pk: int) -> HttpResponse:
    test = get_object_or_404(VersionTest.objects.select_related("v1", "v2", "author"), pk=pk)
    if not version_tests.may_see(test, request.user):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied("this version test is its author's (and staff's) to see")
    return render(
        request, "bots/version_test.html", dict(vars(version_test_page(test, request.GET.get("page"))))
    )
