"""A match's replay as one self-contained HTML file that opens offline (`python -m games play ... --html`).

The file is the site's replay viewer: the same drawing (`games.viewer.drawing`), the same stepper, and the
viewer's own script and style (`static/replay.js`, `static/replay.css`) inlined, with every frame of the match
drawn in advance into a JSON block that the script steps through instead of asking a server. Without a
script the file shows the table before the first move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Any

from games import registry
from games.viewer.drawing import Frame, Html, fmt, join, replay_frames

# The site's colours (league/site/static/league/site.css), which the viewer's style reads.
COLOURS = """:root { --ink: #1d2327; --muted: #5c6870; --line: #dfe3e6; --accent: #b03a2e; --bg: #fbfaf7;
  --surface: #fff; --header-bg: #1d2327; --header-ink: #fff; --control-line: #8a949b; }
body { margin: 1rem auto; max-width: 70rem; padding: 0 1rem; font: 16px/1.45 system-ui, sans-serif;
  color: var(--ink); background: var(--bg); }
.muted { color: var(--muted); }
.button { display: inline-block; padding: .3rem .7rem; border-radius: .35rem; background: var(--accent);
  color: #fff; text-decoration: none; }
.forfeits { color: #a61b1b; }
"""


def asset(name: str) -> str:
    """One of the viewer's files (`replay.js`, `replay.css`), as the site serves it."""
    return files("games.viewer").joinpath("static", name).read_text(encoding="utf-8")


def frame_html(frame: Frame, total: int) -> Html:
    """One frame with its stepper: the markup of the site's `templates/bots/_frame.html`."""
    buttons = [
        ("0", "« First", ""),
        (str(frame.step - 1), "◀ Back", ' rel="prev"'),
    ]
    after = [(str(frame.step + 1), "Next ▶", ' rel="next"'), (str(total), "Last »", "")]
    link = '<a class="button" data-go="{}" href="?step={}"{}>{}</a>'
    return fmt(
        '<div class="frame" data-step="{}"><nav class="stepper">{}'
        '<span class="step">Step <strong id="step-number">{}</strong> of {}</span>{}'
        '<a class="button secondary" data-go="play" href="#">▶ Play</a></nav>'
        '<p class="caption" id="caption">{}</p>{}</div>',
        frame.step,
        Html("".join(link.format(go, go, rel, text) for go, text, rel in buttons)),
        frame.step,
        total,
        Html("".join(link.format(go, go, rel, text) for go, text, rel in after)),
        frame.caption or "–",
        frame.drawing,
    )


def replay_page(
    record: Mapping[str, Any], names: Sequence[str], details: Mapping[int, str] | None = None
) -> str:
    """The whole file: the match's header (seats, places, forfeits with `details` in words) and its viewer.
    Raises `games.core.errors.ReplayError` when the record does not replay."""
    record = dict(record)
    total = len(record["events"])
    frames = [frame_html(frame, total) for frame in replay_frames(record, names)]
    places = record["outcome"]["places"]
    seats = join(
        " · ",
        '<span class="seat-tag s{}">{}</span> ({})',
        ((seat, name, places[seat]) for seat, name in enumerate(names)),
    )
    forfeits = join(
        "",
        "<li>Seat {} forfeited at event {}: {}{}</li>",
        (
            (
                forfeit["seat"] + 1,
                forfeit["event"] + 1,
                forfeit["reason"],
                f" ({details[forfeit['seat']]})" if details and forfeit["seat"] in details else "",
            )
            for forfeit in record["end"]["forfeits"]
        ),
    )
    name = registry.get_game(record["game"]).spec.name
    # Inside <script>, "</" would end the block early: JSON spells the slash as \u002f instead.
    data = json.dumps(frames).replace("</", "<\\u002f")
    script = asset("replay.js").replace("</", "<\\/")
    return fmt(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Replay: {}, seed {}</title><style>{}{}</style></head><body>"
        '<h1>Replay: {}, seed {}</h1><p class="muted">{} · ended {}</p>'
        '<ul class="forfeits">{}</ul>'
        '<div id="replay" data-total="{}">{}</div>'
        '<script type="application/json" id="replay-frames">{}</script>'
        "<script>{}</script></body></html>\n",
        name,
        record["seed"],
        Html(COLOURS),
        Html(asset("replay.css")),
        name,
        record["seed"],
        seats,
        record["end"]["reason"],
        forfeits,
        total,
        frames[0],
        Html(data),
        Html(script),
    )
