"""External programs' rows: an uploaded program's bytes (`Program`), what a program's seat of a bot match left
for its author and staff (`ProgramLog`), and what each worker proved of its sandbox (`WorkerProbe`).

These tables were the bots app's and keep their names (`bots_program`, `bots_programlog`,
`bots_workerprobe`). A bot version (`league.bots.models.BotDefinition`) links its uploaded `Program`; a
`ProgramLog` names the bot version whose seat it is (by the string reference, so this app never imports
`league.bots`).
"""

from django.db import models


class Program(models.Model):
    """An uploaded program's bytes, stored once by their SHA-256 (two versions uploading the same bytes share
    one row), with what its check found (`league.programs.archives`): its format, entry point, manifest and
    files. Immutable: the workers fetch it by hash into their cache (`league.programs.program_cache`)."""

    class Runtime(models.TextChoices):
        PYTHON = "python", "Python"
        NODE = "node", "Node.js"
        C = "c", "C"

    class Format(models.TextChoices):
        PYTHON = "python", "One Python file"
        FILE = "file", "One file"
        ZIP = "zip", "Zip archive"
        TAR = "tar", "Tar archive"

    sha256 = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the uploaded bytes, in hex.")
    size = models.PositiveIntegerField(help_text="The upload's size in bytes.")
    format = models.CharField(max_length=10, choices=Format.choices)
    entry = models.CharField(
        max_length=1024, help_text="The entry point: a file of the program (.py, .js or .c by its runtime)."
    )
    manifest = models.JSONField(default=dict, help_text="The manifest, checked and normalised.")
    files = models.JSONField(default=list, help_text="Each file: [path, size, SHA-256].")
    extracted_bytes = models.PositiveBigIntegerField(help_text="All its files, unpacked, in bytes.")
    content = models.BinaryField(help_text="The uploaded bytes.")
    runtime = models.CharField(
        max_length=10,
        choices=Runtime.choices,
        default=Runtime.PYTHON,
        help_text="What runs it: its manifest's runtime, or its entry point's extension.",
    )
    runtime_version = models.CharField(
        max_length=200, blank=True, help_text="The runtime's version its check found (for C, the compiler's)."
    )
    build = models.BinaryField(
        blank=True, default=b"", help_text="A C program: the executable its check compiled (else empty)."
    )
    build_sha256 = models.CharField(max_length=64, blank=True, help_text="SHA-256 of `build`, in hex.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "bots_program"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(sha256__regex=r"^[0-9a-f]{64}$"), name="program_sha256_hex"
            ),
        ]

    def __str__(self) -> str:
        return self.sha256[:12]


class ProgramLog(models.Model):
    """What the bot's author and staff may read of one seat of a bot match: why it forfeited, in words, and
    what its program printed on its standard error (the last 8 KB). Never public: the match record holds only
    the codes. Kept for the last BOT_LOG_MATCHES matches of each bot version (`program_logs_add` prunes)."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="program_logs")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("bots.BotDefinition", null=True, on_delete=models.SET_NULL, related_name="logs")
    forfeit = models.CharField(
        max_length=20, blank=True, help_text="The record's forfeit code, if it forfeited."
    )
    detail = models.TextField(blank=True, help_text="Why it forfeited, in words.")
    forfeit_event = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="If it forfeited: the record's event index of the forfeit (the replay's step before it).",
    )
    output = models.TextField(blank=True, help_text="The last 8 KB the program wrote to its standard error.")
    output_bytes = models.PositiveBigIntegerField(default=0, help_text="All it wrote there, in bytes.")
    bank = models.TextField(
        blank=True, help_text="Its time bank after each decision, in words: the decisions that drew on it."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "bots_programlog"
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="program_log_once_per_seat")]
        indexes = [models.Index(fields=["bot", "-match"], name="program_log_bot_newest")]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat + 1}"


class WorkerProbe(models.Model):
    """What one worker proved of its sandbox when it started (`league.programs.probe`): which protections
    held.

    A worker whose probe did not prove every protection (`isolated`) takes no seat of an external program.
    """

    worker = models.CharField(
        max_length=200, unique=True, help_text="The worker: Celery node name or host:pid."
    )
    hostname = models.CharField(max_length=200)
    isolated = models.BooleanField(help_text="Every protection proven: it plays external programs.")
    runtimes = models.JSONField(
        default=dict,
        help_text="Runtime (python, node, c) → its version, for each runtime its probe ran in the sandbox.",
    )
    proven = models.JSONField(default=dict, help_text="Protection name → proven.")
    detail = models.JSONField(default=dict, help_text="Protection name → what the probe saw.")
    checked_at = models.DateTimeField()
    seen_at = models.DateTimeField(help_text="When it last looked for work.")

    class Meta:
        db_table = "bots_workerprobe"
        ordering = ["-seen_at", "worker"]

    def __str__(self) -> str:
        return self.worker
