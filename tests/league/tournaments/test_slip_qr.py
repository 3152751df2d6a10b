"""The slips' QR codes: each is the table's public page (absolute, from the site's address) and decodes to
it with zbarimg (Debian zbar-tools); the page's SVG is segno's drawing of the same code."""

import re
import subprocess

import pytest
import segno
from django.test import override_settings

from league.web.tournaments.room import table_address, table_qr
from tests.factories import tournaments as helpers

pytestmark = pytest.mark.qr_decoder


def _decoded(address: str, tmp_path) -> str:
    png = tmp_path / "qr.png"
    segno.make(address, error="m").save(png, scale=6, border=4)
    done = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


@override_settings(SITE_URL="https://cups.example.org")
def test_each_slips_qr_code_decodes_to_its_tables_page(client, organizer, tmp_path):
    tournament, _ = helpers.make_tournament(organizer, 8)
    helpers.play_round(tournament, organizer, complete=False)
    page = client.get(f"/tournaments/{tournament.slug}/rounds/1/slips/").content.decode()
    svgs = re.findall(r'<figure class="slip-qr"[^>]*>(<svg.*?</svg>)', page, re.S)
    assert len(svgs) == 2
    for number, svg in enumerate(svgs, start=1):
        address = table_address(tournament.slug, 1, number)
        assert address == f"https://cups.example.org/tournaments/{tournament.slug}/rounds/1/tables/{number}/"
        assert svg == str(table_qr(address))  # the page draws exactly this code
        assert _decoded(address, tmp_path) == address
        # and the address is the table's public page, which anyone reads
        assert client.get(address.removeprefix("https://cups.example.org")).status_code == 200
    assert "Code <strong>1.1</strong>" in page and "Code <strong>1.2</strong>" in page
