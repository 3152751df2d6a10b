"""What a machine's memory budget for sandboxes (`SANDBOX_MEMORY_BUDGET_MB`) lets the league seat.

The workers hold it (`league.programs.sandbox`: the caps of the seats running at once on one machine never
exceed it); these checks refuse, when a bot is registered or a table is formed, what could never be played
within it: a bot whose own seat's cap exceeds the budget, and a table whose seats' caps, which start together,
exceed it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from league.bots.models import BotDefinition
from league.core.errors import UserError

DEFAULT_MEMORY_MB = 512  # an uploaded program's, and a registered one's unless staff choose


def seat_memory_mb(bot: BotDefinition) -> int:
    """The memory cap of a seat of `bot`: SANDBOX_MAX_PROCESSES processes of its memory (0 for a built-in,
    which plays inside the worker's own process)."""
    return settings.SANDBOX_MAX_PROCESSES * bot.memory_mb if bot.is_external else 0


def check_seat_memory(*, memory_mb: int, field: str | None = "memory_mb") -> None:
    """Refuse an external program whose seat (SANDBOX_MAX_PROCESSES processes of `memory_mb`) alone exceeds
    the budget: it could never be seated."""
    processes, budget = settings.SANDBOX_MAX_PROCESSES, settings.SANDBOX_MEMORY_BUDGET_MB
    cap = processes * memory_mb
    if cap > budget:
        raise UserError(
            f"a seat of this bot can hold {cap} MB ({processes} processes of {memory_mb} MB), more than a "
            f"worker's memory budget for bots ({budget} MB): "
            f"at most {budget // processes} MB per process fits",
            field=field,
        )


def check_table_memory(*, bots: Iterable[BotDefinition], table_size: int, field: str) -> None:
    """Refuse bots of which some `table_size` at one table would hold more than the budget at once (a table's
    seats start together): the largest caps among them, added up."""
    caps = sorted((seat_memory_mb(bot) for bot in bots), reverse=True)[:table_size]
    budget = settings.SANDBOX_MEMORY_BUDGET_MB
    if sum(caps) > budget:
        raise UserError(
            f"a table of {table_size} of these bots can hold {sum(caps)} MB of external programs at once, "
            f"more than a worker's memory budget for bots ({budget} MB): seat fewer external programs "
            "together, or ones with less memory",
            field=field,
        )
