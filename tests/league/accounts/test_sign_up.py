"""Sign-up in two steps: the form mails a link, the link makes the account. The answer never says whether an
address has an account (that address gets a mail saying so, with a reset link); a link carries only a random
token (the pending sign-up is stored, the password only as its hash), works once and expires; failed
attempts count against the client's address, sized for a venue of a hundred phones behind one address.

Times are set by patching `django.utils.timezone.now`."""

import hashlib
import re
import secrets
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core import mail, signing
from django.test import Client

from league.accounts import services
from league.accounts.models import PendingSignUp
from league.core.errors import UserError
from tests.league.accounts.conftest import browser_for

User = get_user_model()
GOOD = "correct horse 9"
SIGN_UP = "/accounts/signup/"
SENT = "/accounts/signup/sent/"
T0 = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
BROKEN = "This sign-up link is broken: open it from the mail again (all of it), or sign up again."
LINK = re.compile(r"^http://localhost:8000(/accounts/signup/[^/\s]+/)$", re.MULTILINE)


@contextmanager
def at(moment: datetime):
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def sign_up(client: Client | None = None, **fields):
    values = {"username": "zoe", "email": "zoe@secret.example", "password1": GOOD, "password2": GOOD}
    return (client or Client()).post(SIGN_UP, {**values, **fields})


def link_in(message) -> str:
    return LINK.search(message.body).group(1)


def refusal(response) -> str:
    found = re.search(r'<p class="error-box" role="alert" id="refused">(.*)</p>', response.content.decode())
    return found.group(1)


# --------------------------------------------------------------------------------------------- the flow


def test_sign_up_mails_a_link_that_makes_the_account_and_logs_it_in(db):
    client = Client()
    assert client.get(SIGN_UP).status_code == 200
    response = sign_up(client)
    assert (response.status_code, response["Location"]) == (302, SENT)
    assert not User.objects.filter(username="zoe").exists()
    sent = client.get(SENT).content.decode()
    assert (
        "We mailed the address you gave: open the link in that mail to finish signing up. "
        "It works for 24 hours." in sent
    )
    [message] = mail.outbox
    assert (message.to, message.subject, message.from_email) == (
        ["zoe@secret.example"],
        "Pecking Order: finish signing up",
        "Pecking Order <no-reply@localhost>",
    )
    assert message.body.startswith(
        "Hello \u2068zoe\u2069,\n\nsomeone (we hope you) signed up at Pecking Order"
    )
    assert message.body.rstrip().endswith(
        "The link works for 24 hours. If you did not sign up, ignore this mail: no account is made."
    )
    assert GOOD not in message.body
    link = link_in(message)
    page = client.get(link)
    assert page.status_code == 200
    assert (
        "This creates the account <strong><bdi>zoe</bdi></strong> for zoe@secret.example, with the password "
        "you chose, and logs you in." in page.content.decode()
    )
    assert not User.objects.filter(username="zoe").exists()  # a mail scanner's GET makes nothing
    made = client.post(link)
    assert (made.status_code, made["Location"]) == (302, "/me/")
    user = User.objects.get(username="zoe")
    assert (user.email, user.is_staff, user.is_active, user.check_password(GOOD)) == (
        "zoe@secret.example",
        False,
        True,
        True,
    )
    me = client.get("/me/").content.decode()
    assert "Welcome, zoe: create your player or claim yours below." in me
    assert '<strong id="my-email">zoe@secret.example</strong>' in me


def test_the_link_carries_nothing_but_a_random_token(db):
    sign_up(next="/tournaments/")
    link = link_in(mail.outbox[0])
    token = link.split("/")[3]
    assert link == f"/accounts/signup/{token}/"
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)  # secrets.token_urlsafe(32)
    [pending] = PendingSignUp.objects.all()
    for value in ("zoe", "secret.example", "tournaments", pending.password_hash, pending.password_hash[-20:]):
        assert value not in link
    sign_up(Client(REMOTE_ADDR="10.0.0.2"), username="yan", email="yan@secret.example")
    assert link_in(mail.outbox[1]).split("/")[3] != token


def test_the_stored_sign_up_holds_the_passwords_hash_and_the_tokens_hash_only(db):
    sign_up(next="/tournaments/")
    token = link_in(mail.outbox[0]).split("/")[3]
    [pending] = PendingSignUp.objects.values()
    assert pending["token_hash"] == hashlib.sha256(token.encode()).hexdigest()
    assert (pending["username"], pending["email"], pending["next_url"]) == (
        "zoe",
        "zoe@secret.example",
        "/tournaments/",
    )
    assert pending["password_hash"].startswith("md5$")
    stored = " ".join(str(value) for value in pending.values())
    assert GOOD not in stored and token not in stored


def test_the_link_goes_back_to_a_local_next_only(db):
    for username, next_url, expected in (
        ("yan", "/tournaments/", "/tournaments/"),
        ("xia", "https://evil.example/", "/me/"),
    ):
        sign_up(username=username, email=f"{username}@secret.example", next=next_url)
        made = Client().post(link_in(mail.outbox[-1]))
        assert made["Location"] == expected


def test_a_signed_in_user_is_sent_from_sign_up_to_my_page(alice):
    response = browser_for(alice).get(SIGN_UP)
    assert (response.status_code, response["Location"]) == (302, "/me/")


# ------------------------------------------------------------------------------------------ enumeration


def test_a_taken_address_gets_the_same_answer_and_a_mail_saying_so(alice):
    taken = sign_up(Client(REMOTE_ADDR="10.0.0.1"), username="zoe", email="ALICE@secret.example")
    free = sign_up(Client(REMOTE_ADDR="10.0.0.2"), username="yan", email="yan@secret.example")
    assert (taken.status_code, taken["Location"]) == (free.status_code, free["Location"]) == (302, SENT)
    assert taken.content == free.content
    assert Client().get(taken["Location"]).content == Client().get(free["Location"]).content
    assert [(message.to, message.subject) for message in mail.outbox] == [
        (["alice@secret.example"], "Pecking Order: you have an account already"),
        (["yan@secret.example"], "Pecking Order: finish signing up"),
    ]
    note = mail.outbox[0].body
    assert note.startswith(
        "Hello \u2068alice\u2069,\n\nsomeone (we hope you) tried to sign up at Pecking Order with this "
        "address, which your account, \u2068alice\u2069, uses already: no second account is made."
    )
    assert LINK.search(note) is None  # no sign-up link: nothing makes a second account
    assert User.objects.filter(email__iexact="alice@secret.example").count() == 1
    reset = re.search(r"http://localhost:8000(/accounts/password/reset/\S+)", note).group(1)
    client = Client()
    form = client.get(reset, follow=True)
    assert form.status_code == 200
    new = {"new_password1": "brand new pass 7", "new_password2": "brand new pass 7"}
    done = client.post(form.redirect_chain[-1][0], new)
    assert (done.status_code, done["Location"]) == (302, "/accounts/login/")
    alice.refresh_from_db()
    assert alice.check_password("brand new pass 7")


def test_both_answers_take_the_same_work(alice):
    with mock.patch("league.accounts.services.make_password", wraps=make_password) as hashing:
        sign_up(email="alice@secret.example")
        sign_up(email="zoe@secret.example")
    assert hashing.call_count == 2
    assert len(mail.outbox) == 2


def test_one_address_gets_at_most_3_mails_an_hour_whether_or_not_it_has_an_account(alice):
    answers = [
        sign_up(Client(REMOTE_ADDR=f"10.0.0.{n}"), email=email)["Location"]
        for email in ("alice@secret.example", "zoe@secret.example")
        for n in range(5)
    ]
    assert answers == [SENT] * 10
    recipients = [message.to[0] for message in mail.outbox]
    assert recipients == ["alice@secret.example"] * 3 + ["zoe@secret.example"] * 3


def test_the_fields_are_checked_as_before_except_whether_the_address_has_an_account(alice):
    response = sign_up(username="ALICE", email="ALICE@secret.example", password1="Zx9#kq", password2="Zx9#kq")
    assert response.status_code == 400
    assert {name: list(errors) for name, errors in response.context["form"].errors.items()} == {
        "username": ["A user with that username already exists."],
        "password2": ["This password is too short. It must contain at least 12 characters."],
    }
    assert mail.outbox == []


def test_the_service_refuses_what_the_form_refuses(alice):
    with pytest.raises(UserError, match="^that username is taken: choose another$"):
        services.sign_up_request(username="Alice", email="new@secret.example", password=GOOD, site="")
    with pytest.raises(UserError, match="^enter a valid email address$"):
        services.sign_up_request(username="zoe", email="not an address", password=GOOD, site="")
    with pytest.raises(UserError, match="at least 12 characters"):
        services.sign_up_request(username="zoe", email="zoe@secret.example", password="Zx9#k", site="")
    assert mail.outbox == []


# ------------------------------------------------------------------------------------------------ links


def test_a_tampered_cut_or_unknown_link_is_refused_and_makes_nothing(db):
    sign_up()
    link = link_in(mail.outbox[0])
    token = link.split("/")[3]
    old_style = signing.dumps(
        {"u": "mallory", "e": "m@secret.example", "p": make_password(GOOD), "n": "", "t": 2**40},
        salt="league.accounts.sign-up",
        compress=True,
    )
    forged = [
        link.replace(token, token[:-1] + ("A" if token[-1] != "A" else "B")),
        link.replace(token, ("A" if token[0] != "A" else "B") + token[1:]),
        link.replace(token, token[: len(token) // 2]),
        link.replace(token, token + "A"),
        link.replace(token, secrets.token_urlsafe(32)),
        link.replace(token, hashlib.sha256(token.encode()).hexdigest()),  # the stored hash is no token
        link.replace(token, old_style),  # a signed link of before: it names no stored sign-up
        link.replace(token, "x" * 3000),
        "/accounts/signup/%00/",
    ]
    for url in forged:
        for method in ("get", "post"):
            response = getattr(Client(), method)(url)
            assert (response.status_code, refusal(response)) == (400, BROKEN), url
    assert not User.objects.filter(username__in=["zoe", "mallory"]).exists()
    assert PendingSignUp.objects.count() == 1
    assert Client().post(link).status_code == 302


def test_a_link_works_for_a_day(db):
    with at(T0):
        sign_up()
    link = link_in(mail.outbox[0])
    with at(T0 + timedelta(days=1) - timedelta(seconds=1)):
        assert Client().get(link).status_code == 200
    with at(T0 + timedelta(days=1)):
        late = Client().post(link)
    assert (late.status_code, refusal(late)) == (
        409,
        "This sign-up link expired on 2027-03-02 09:00 UTC: sign up again.",
    )
    assert not User.objects.filter(username="zoe").exists()


def test_an_expired_sign_up_is_purged_a_day_after_its_link_expired(db):
    with at(T0):
        sign_up()
    link = link_in(mail.outbox[0])
    expired = "This sign-up link expired on 2027-03-02 09:00 UTC: sign up again."
    with at(T0 + timedelta(days=2) - timedelta(seconds=1)):
        sign_up(Client(REMOTE_ADDR="10.0.0.2"), username="yan", email="yan@secret.example")
        late = Client().get(link)
    assert (late.status_code, refusal(late)) == (409, expired)
    assert sorted(PendingSignUp.objects.values_list("username", flat=True)) == ["yan", "zoe"]
    with at(T0 + timedelta(days=2)):
        sign_up(Client(REMOTE_ADDR="10.0.0.3"), username="xia", email="xia@secret.example")
        gone = Client().get(link)
    assert (gone.status_code, refusal(gone)) == (400, BROKEN)
    assert sorted(PendingSignUp.objects.values_list("username", flat=True)) == ["xia", "yan"]


def test_a_link_makes_one_account_once_and_its_sign_up_is_deleted(db):
    sign_up()
    link = link_in(mail.outbox[0])
    assert Client().post(link).status_code == 302
    assert PendingSignUp.objects.count() == 0
    for method in ("get", "post"):
        again = getattr(Client(), method)(link)
        assert (again.status_code, refusal(again)) == (400, BROKEN)
    assert User.objects.filter(username="zoe").count() == 1


def test_a_second_link_of_the_same_sign_up_says_the_account_exists(db):
    sign_up(Client(REMOTE_ADDR="10.0.0.1"))
    sign_up(Client(REMOTE_ADDR="10.0.0.2"))
    first, second = (link_in(message) for message in mail.outbox)
    assert Client().post(first).status_code == 302
    again = Client().post(second)
    assert (again.status_code, refusal(again)) == (
        409,
        "This link was used already: the account zoe exists, log in.",
    )
    assert User.objects.filter(username="zoe").count() == 1
    assert PendingSignUp.objects.count() == 1  # refused: left to expire


def test_a_link_whose_username_or_address_got_an_account_meanwhile_is_refused(db):
    sign_up(username="zoe", email="zoe@secret.example")
    sign_up(username="ZOE", email="other@secret.example")  # the same username, another address
    sign_up(username="zed", email="Zoe@Secret.example")  # the same address, another username
    first, same_name, same_address = (link_in(message) for message in mail.outbox)
    assert Client().post(first).status_code == 302
    name = Client().post(same_name)
    assert (name.status_code, refusal(name)) == (
        409,
        "The username ZOE was taken meanwhile: sign up again with another.",
    )
    address = Client().post(same_address)
    assert (address.status_code, refusal(address)) == (
        409,
        "An account uses this email address already: log in, or reset its password.",
    )
    assert list(User.objects.values_list("username", "email")) == [("zoe", "zoe@secret.example")]


# --------------------------------------------------------------------------------------------- throttle


def test_a_venue_of_100_phones_behind_one_address_all_sign_up(db):
    venue = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(100):
        person = {"username": f"p{n}", "email": f"p{n}@secret.example"}
        assert sign_up(venue, **person, password2="a typo here 1").status_code == 400
        assert sign_up(venue, **person, password1="Zx9#kq", password2="Zx9#kq").status_code == 400
        assert sign_up(venue, **person)["Location"] == SENT
    assert len(mail.outbox) == 100
    for message in mail.outbox[:100]:
        assert venue.post(link_in(message)).status_code == 302
        venue.post("/accounts/logout/")
    assert User.objects.count() == 100


def test_failed_attempts_from_one_address_are_stopped_after_300_an_hour(db):
    venue = Client(REMOTE_ADDR="203.0.113.7")
    for n in range(300):
        assert sign_up(venue, username=f"p{n}", password2="mismatch here 1").status_code == 400
    refused = sign_up(venue)  # a valid one too
    assert (refused.status_code, refused["Retry-After"]) == (429, "3600")
    page = refused.content.decode()
    assert "Too many sign-ups from your address in the last hour: try again later." in page
    assert mail.outbox == []
    assert sign_up(Client(REMOTE_ADDR="198.51.100.1"))["Location"] == SENT


def test_broken_links_count_as_failures(db, settings):
    settings.SIGN_UP_FAILURES_PER_CLIENT_HOUR = 2
    sign_up(Client(REMOTE_ADDR="10.9.9.9"))
    link = link_in(mail.outbox[0])
    prober = Client(REMOTE_ADDR="10.0.0.66")
    assert [prober.get(f"/accounts/signup/guess{n}/").status_code for n in range(3)] == [400, 400, 429]
    assert prober.post(link).status_code == 429  # even a good link, once the address is locked
    assert sign_up(prober).status_code == 429
    assert Client().post(link).status_code == 302


def test_one_address_asks_for_a_limited_number_of_mails(db, settings):
    settings.SIGN_UP_REQUESTS_PER_CLIENT_HOUR = 2
    client = Client(REMOTE_ADDR="10.0.0.5")
    answers = [sign_up(client, username=f"u{n}", email=f"u{n}@secret.example") for n in range(3)]
    assert [answer.status_code for answer in answers] == [302, 302, 429]
    assert len(mail.outbox) == 2


def test_the_console_backend_prints_the_mail_as_make_run_shows_it(db, settings, capsys):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    sign_up()
    printed = capsys.readouterr().out
    assert "Subject: Pecking Order: finish signing up" in printed
    assert LINK.search(printed) is not None


@pytest.mark.parametrize(
    ("junk", "status"),
    # four fields of 100,000 exceed the body's cap (413); of 60,000 they do not and the form refuses them
    [("\x00", 400), ("x" * 60_000, 400), ("ž" * 151, 400), ("x" * 100_000, 413)],
)
def test_junk_is_refused_never_a_500(db, junk, status):
    response = sign_up(username=junk, email=junk, password1=junk, password2=junk)
    assert response.status_code == status
    assert mail.outbox == []
