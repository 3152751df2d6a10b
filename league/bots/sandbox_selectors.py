"""What the workers proved of their sandbox (`sandbox_status`), for the health page, the bot and league
pages; and which fixtures wait for one that did (`external_seat`, also read by the leased work)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from league.bots.models import BotDefinition, BotLeague, Fixture
from league.matches.models import MatchSeat
from league.programs.models import WorkerProbe
from league.programs.probe import PROTECTIONS
from league.programs.runtimes import PYTHON

# A worker counts as present if it looked for work this recently; probes are listed for a day.
SANDBOX_SEEN = timedelta(minutes=10)
PROBES_LISTED = timedelta(days=1)


def runtime_lacking(runtimes: Collection[str]) -> Exists:
    """Whether a row's match has a seat played by an uploaded program whose runtime is not among `runtimes`
    (a filter on leased rows: a worker whose probe lacks a runtime takes none of its seats)."""
    return Exists(
        MatchSeat.objects.filter(match_id=OuterRef("match_id"))
        .filter(player__bot_definition__program__isnull=False)
        .exclude(player__bot_definition__program__runtime__in=list(runtimes))
    )


def external_seat() -> Exists:
    """Whether a fixture's match has a seat played by an external program (a filter on fixtures)."""
    return Exists(
        MatchSeat.objects.filter(
            match_id=OuterRef("match_id"), player__bot_definition__kind=BotDefinition.Kind.EXTERNAL
        )
    )


@dataclass(frozen=True)
class ProbeRow:
    """One worker's probe: what it proved, protection by protection (label, proven, what the probe saw)."""

    probe: WorkerProbe
    protections: list[tuple[str, bool, str]]


@dataclass(frozen=True)
class SandboxStatus:
    """The workers' probes of the last day, those that proved their sandbox lately, and the matches with an
    external program's seat that wait (in running leagues; in one league if asked for one)."""

    probes: list[ProbeRow]
    isolated: list[str]
    waiting: int

    @property
    def ok(self) -> bool:
        return not self.waiting or bool(self.isolated)

    @property
    def message(self) -> str:
        if self.ok:
            return ""
        minutes = int(SANDBOX_SEEN.total_seconds() // 60)
        return (
            f"{self.waiting} {'match' if self.waiting == 1 else 'matches'} with an external program "
            f"{'waits' if self.waiting == 1 else 'wait'} for a worker that has proved its sandbox: none has "
            f"in the last {minutes} minutes (see /health/ for what each worker proved)."
        )

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "message": self.message,
            "waiting_matches": self.waiting,
            "isolated_workers": self.isolated,
            "workers": [
                {
                    "worker": row.probe.worker,
                    "isolated": row.probe.isolated,
                    "checked_at": row.probe.checked_at.isoformat(),
                    "seen_at": row.probe.seen_at.isoformat(),
                    "proven": {name: bool(row.probe.proven.get(name)) for name in PROTECTIONS},
                    "runtimes": dict(row.probe.runtimes),
                    "failed": {
                        name: str(row.probe.detail.get(name, ""))
                        for name in PROTECTIONS
                        if not row.probe.proven.get(name)
                    },
                }
                for row in self.probes
            ],
        }


def sandbox_status(league: BotLeague | None = None) -> SandboxStatus:
    """What the workers proved of their sandbox, and what waits for one that did (three queries)."""
    now = timezone.now()
    probes = list(WorkerProbe.objects.filter(seen_at__gte=now - PROBES_LISTED).order_by("-seen_at", "worker"))
    isolated = [probe.worker for probe in probes if probe.isolated and probe.seen_at >= now - SANDBOX_SEEN]
    open_fixtures = Fixture.objects.filter(done=False, league__status=BotLeague.Status.RUNNING)
    if league is not None:
        open_fixtures = open_fixtures.filter(league=league)
    waiting = open_fixtures.filter(external_seat()).count() if not isolated else 0
    rows = [
        ProbeRow(
            probe,
            [
                (label, bool(probe.proven.get(name)), str(probe.detail.get(name, "")))
                for name, label in PROTECTIONS.items()
            ],
        )
        for probe in probes
    ]
    return SandboxStatus(probes=rows, isolated=isolated, waiting=waiting)


def runtime_message(runtime: str) -> str:
    """What a bot's page says when no worker that proved its sandbox lately found `runtime` in it (its
    probe, `league.programs.probe.probe_runtimes`): its matches wait. Empty when one has it. A probe from
    before runtimes were probed (no runtimes recorded) ran Python programs only."""
    recent = WorkerProbe.objects.filter(isolated=True, seen_at__gte=timezone.now() - SANDBOX_SEEN)
    found = recent.filter(runtimes__has_key=runtime)
    if runtime == PYTHON:
        found = found | recent.filter(runtimes={})
    if found.exists():
        return ""
    return f"No worker can run {runtime} programs now; its matches wait."
