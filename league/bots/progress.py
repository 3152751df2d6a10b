"""A one-line text progress bar for the bot-league shell commands."""

from __future__ import annotations

BAR_WIDTH = 30


def progress_line(*, played: int, target: int, round_number: int, per_second: float, status: str) -> str:
    """`[#########---------] 120/400 matches · round 3 · 85.2 matches/s · running`"""
    filled = BAR_WIDTH if target <= 0 else min(BAR_WIDTH, BAR_WIDTH * played // target)
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    return f"[{bar}] {played}/{target} matches · round {round_number} · {per_second:.1f} matches/s · {status}"
