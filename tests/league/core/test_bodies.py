"""The cap on request bodies (league.core.bodies, league.api.errors.BodySizeLimit): over its view's cap a
request answers 413 before its body is read or spooled to a temporary file, a chunked body is counted as it
streams, the API answers in its error body, and the uploads and batches that need more still get it."""

import io
import json
import sys
import tempfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.bots.models import BotDefinition
from league.bots.uploads import upload_body_limit
from league.core.bodies import BodyTooLarge, CappedStream, size_in_words
from league.players.models import Player
from league.tournaments.forms import participants_body_limit
from tests.factories import UserFactory
from tests.league.bots.crafted import BOT

KIB = 1 << 10
MIB = 1 << 20


@pytest.fixture
def temp_folder(settings, tmp_path, monkeypatch):
    """Every temporary file Django or tempfile would write goes to an empty folder of the test's own."""
    folder = tmp_path / "uploads"
    folder.mkdir()
    settings.FILE_UPLOAD_TEMP_DIR = str(folder)
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_an_anonymous_oversized_post_to_the_login_page_is_413_and_writes_no_temporary_file(
    client, temp_folder
):
    # 3 MiB: past FILE_UPLOAD_MAX_MEMORY_SIZE (2 MiB), where Django would spool the file to the temp folder.
    big = SimpleUploadedFile("big.bin", b"x" * (3 * MIB))
    response = client.post("/accounts/login/", {"username": "a", "password": "b", "file": big})
    assert (response.status_code, response["Content-Type"]) == (413, "text/html; charset=utf-8")
    page = response.content.decode()
    assert "The form sent more than 256 KiB, the most this page accepts" in page
    assert "Error 413: the request body is larger than 256 KiB: send less" in page
    assert list(temp_folder.iterdir()) == []


def test_a_form_body_just_over_the_cap_is_413_and_one_at_the_cap_is_read(client, settings, db):
    settings.REQUEST_BODY_MAX_BYTES = 16 * KIB
    at_cap = "username=a&password=" + "x" * (16 * KIB - len("username=a&password="))
    response = client.post("/accounts/login/", at_cap, content_type="application/x-www-form-urlencoded")
    assert (response.status_code, response.context["form"].errors["__all__"][0]) == (
        400,
        "Please enter a correct username and password. Note that both fields may be case-sensitive.",
    )  # the log-in page again, with its refusal: the body was read
    response = client.post("/accounts/login/", at_cap + "x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413


class CountingInput(io.BytesIO):
    """A request's input that counts the bytes read from it."""

    consumed = 0

    def read(self, size=-1):
        data = super().read(size)
        self.consumed += len(data)
        return data


def chunked_post(path: str, body: bytes, **headers) -> tuple[str, bytes, CountingInput]:
    """POST `body` to `path` through the WSGI application as gunicorn hands over a chunked body: no
    Content-Length, the input de-chunked and ended (wsgi.input_terminated); with a CSRF cookie, so that the
    CSRF check reads the body for its token. (status, page, the input)."""
    stream = CountingInput(body)
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "localhost",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "HTTP_COOKIE": "csrftoken=" + "a" * 32,
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "wsgi.input": stream,
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.url_scheme": "http",
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        **headers,
    }
    statuses = []
    # As Django's test client does: the test's database connection stays open after the request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = WSGIHandler()(environ, lambda status, headers, *_: statuses.append(status))
        body_out = b"".join(response)
        response.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return statuses[0], body_out, stream


def test_a_chunked_body_over_the_cap_is_counted_as_it_streams_and_answers_413(db, temp_folder):
    status, page, stream = chunked_post("/accounts/login/", b"username=a&password=" + b"x" * MIB)
    assert status.startswith("413 ")
    assert b"Error 413: the request body is larger than 256 KiB: send less" in page
    assert stream.consumed == 256 * KIB + 1  # read up to one byte past the cap, and no further
    assert list(temp_folder.iterdir()) == []


def test_a_chunked_body_under_the_cap_is_read_as_usual(db):
    # Read and checked like any form: here refused by the CSRF check, which found no token in it.
    status, _, stream = chunked_post("/accounts/login/", b"username=a&password=b")
    assert (status, stream.consumed) == ("403 Forbidden", 21)


def test_the_api_answers_413_in_its_error_body_before_reading(db):
    client = APIClient()
    body = '{"name": "' + "a" * (300 * KIB) + '"}'
    response = client.post("/api/players/", body, content_type="application/json")
    assert (response.status_code, response["Content-Type"]) == (413, "application/json")
    assert response.json() == {
        "code": "payload_too_large",
        "detail": "the request body is larger than 256 KiB: send less",
        "errors": [],
    }


def test_a_chunked_body_to_the_api_is_not_read_at_all(db):
    # The API's parsers read a body by its Content-Length alone: without one, nothing (a missing field).
    token = Token.objects.create(user=UserFactory(username="staff", is_staff=True)).key
    body = b"name=" + b"a" * (300 * KIB)
    status, answer, stream = chunked_post("/api/players/", body, HTTP_AUTHORIZATION=f"Token {token}")
    assert (status, stream.consumed) == ("400 Bad Request", 0)
    required = {"field": "name", "code": "required", "detail": "This field is required."}
    assert json.loads(answer)["errors"] == [required]
    assert not Player.objects.exists()


def padded_bot(size: int) -> bytes:
    """The test bot's program padded with comment lines to `size` bytes."""
    line = b"# " + b"p" * 97 + b"\n"
    padding = size - len(BOT)
    return BOT + line * (padding // len(line)) + b"#" * (padding % len(line) - 1) + b"\n"


def test_an_upload_under_the_upload_cap_but_over_the_default_one_is_taken_by_the_page_and_the_api(
    client, settings, temp_folder, db
):
    assert (settings.BOT_UPLOAD_MAX_BYTES, settings.REQUEST_BODY_MAX_BYTES) == (MIB, 256 * KIB)
    member = UserFactory(username="member")
    program = padded_bot(MIB - 1000)
    assert len(program) == MIB - 1000
    client.force_login(member)
    response = client.post(
        "/bots/bots/upload/",
        {
            "game": "nacho_pile",
            "name": "Big page bot",
            "file": SimpleUploadedFile("bot.py", program),
            "description": "d" * 5000,
        },
    )
    assert response.status_code == 302
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=member).key}")
    program = padded_bot(MIB - 2000)
    response = api.post(
        "/api/bots/upload/",
        {
            "game": "nacho_pile",
            "name": "Big api bot",
            "file": SimpleUploadedFile("bot.py", program),
        },
        format="multipart",
    )
    assert response.status_code == 201
    stored = {bot.name: bot.program.size for bot in BotDefinition.objects.select_related("program")}
    assert stored == {"Big page bot": MIB - 1000, "Big api bot": MIB - 2000}
    assert list(temp_folder.iterdir()) == []


def test_an_upload_body_past_the_upload_cap_and_its_form_is_413(client, db):
    member = UserFactory(username="member")
    client.force_login(member)
    program = SimpleUploadedFile("bot.py", b"#" * (MIB + 64 * KIB))
    response = client.post("/bots/bots/upload/", {"game": "nacho_pile", "name": "Huge", "file": program})
    assert response.status_code == 413
    assert "Error 413: the request body is larger than 1088 KiB: send less" in response.content.decode()
    api = APIClient()
    api.force_authenticate(member)
    program = SimpleUploadedFile("bot.py", b"#" * (MIB + 64 * KIB))
    response = api.post("/api/bots/upload/", {"game": "nacho_pile", "name": "Huge", "file": program})
    assert response.json()["detail"] == "the request body is larger than 1088 KiB: send less"
    assert not BotDefinition.objects.exists()


def test_a_tournament_page_takes_a_batch_of_participants_past_the_default_cap(client, db):
    # Anonymous: refused by the page (a log-in), not by the cap, which leaves it 2 MiB.
    body = "action=register&names=" + "Ada\n" * (300 * KIB // 4)
    form = "application/x-www-form-urlencoded"
    response = client.post("/tournaments/spring-open/", body, content_type=form)
    assert response.status_code != 413
    response = client.post("/tournaments/spring-open/", body * 8, content_type=form)
    assert response.status_code == 413


def test_a_capped_stream_stops_one_byte_past_its_cap_whatever_is_asked():
    stream = CappedStream(io.BytesIO(b"line one\nline two\n" + b"z" * 100), 20)
    assert stream.readline() == b"line one\n"
    assert stream.read(5) == b"line "
    with pytest.raises(BodyTooLarge, match="^the request body is larger than 20 bytes$"):
        stream.read()
    assert (stream.count, stream.exceeded) == (21, True)
    with pytest.raises(BodyTooLarge):
        stream.read(1)


def test_sizes_in_words():
    assert [size_in_words(n) for n in (256 * KIB, MIB, MIB + 64 * KIB, 1500)] == [
        "256 KiB",
        "1 MiB",
        "1088 KiB",
        "1,500 bytes",
    ]


def test_djangos_own_bounds_neither_refuse_nor_spool_what_a_cap_lets_through(settings):
    caps = [settings.REQUEST_BODY_MAX_BYTES, upload_body_limit(), participants_body_limit()]
    assert caps == [256 * KIB, MIB + 64 * KIB, 2 * MIB]
    assert (settings.DATA_UPLOAD_MAX_MEMORY_SIZE, settings.FILE_UPLOAD_MAX_MEMORY_SIZE) == (2 * MIB, 2 * MIB)
    assert settings.MIDDLEWARE[0] == "league.api.errors.BodySizeLimit"
