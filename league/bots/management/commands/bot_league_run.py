"""`manage.py bot_league_run LEAGUE`: play a league to its target in this process, with a progress bar.

With --watch, play nothing and watch the workers play it instead. LEAGUE is an id or a name.
"""

from __future__ import annotations

import os
import socket
import time

from django.core.management.base import BaseCommand, CommandError

from league.bots.models import BotLeague
from league.bots.progress import progress_line
from league.bots.selectors import league_progress
from league.bots.services.leagues import league_start
from league.bots.services.work import work_play
from league.core.errors import UserError

WATCH_INTERVAL_SECONDS = 1.0


class Command(BaseCommand):
    help = (
        "Start (or resume) a bot league and play it here to its target, showing progress; "
        "--watch only watches."
    )

    def add_arguments(self, parser):
        parser.add_argument("league", help="The league's id or name.")
        parser.add_argument(
            "--watch", action="store_true", help="Let the Celery workers play; show progress."
        )

    def handle(self, *args, league: str, watch: bool, **options):
        found = BotLeague.objects.filter(pk=int(league)).first() if league.isdigit() else None
        found = found or BotLeague.objects.filter(name__iexact=league).first()
        if found is None:
            raise CommandError(f"no bot league {league!r}", returncode=2)
        if found.status in (BotLeague.Status.DRAFT, BotLeague.Status.PAUSED):
            try:
                league_start(league_id=found.pk)
            except UserError as exc:
                raise CommandError(exc.message, returncode=2) from None
        started = time.monotonic()
        base = league_progress(found).played

        def show(_stored: int = 0) -> str:
            found.refresh_from_db()
            progress = league_progress(found)
            rate = (progress.played - base) / max(time.monotonic() - started, 1e-9)
            line = progress_line(
                played=progress.played,
                target=progress.target,
                round_number=progress.round,
                per_second=rate,
                status=found.get_status_display().lower(),
            )
            self.stdout.write("\r" + line, ending="")
            self.stdout.flush()
            return found.status

        if watch:
            while show() == BotLeague.Status.RUNNING:
                time.sleep(WATCH_INTERVAL_SECONDS)
        else:
            work_play(
                league_id=found.pk, worker=f"shell:{socket.gethostname()}:{os.getpid()}", on_stored=show
            )
            show()
        self.stdout.write("")
        if found.status != BotLeague.Status.FINISHED:
            raise CommandError(f"the league is {found.get_status_display().lower()}, not finished")
        self.stdout.write(self.style.SUCCESS(f"League {found.name} finished."))
