"""What the sandbox would show a program, and what registering a bot refuses: paths only,
no sandbox needed."""

import pytest
from django.conf import settings

from league.bots.services.definitions import bot_register
from league.core.errors import UserError
from league.programs.sandbox import Sandbox, SandboxConfig, SandboxRefused, delegated_memory_cgroup
from league.programs.sandboxing import sandbox

PYTHON = "/usr/bin/python3"


@pytest.mark.parametrize(
    "path",
    [
        settings.BASE_DIR / "league" / "settings" / "base.py",
        settings.BASE_DIR / "manage.py",
        settings.VAR_DIR,
        settings.BASE_DIR / "league" / "bots",
    ],
)
def test_a_command_naming_the_services_own_files_is_refused(path):
    with pytest.raises(SandboxRefused, match="holds or is part of the service's own files"):
        sandbox().bot_folders([PYTHON, str(path)])


def test_a_bot_may_live_in_a_folder_of_its_own_even_inside_the_tree():
    examples = settings.BASE_DIR / "examples"
    assert sandbox().bot_folders([PYTHON, str(examples / "random_bot.py"), "-v"]) == [str(examples)]


def test_system_paths_and_arguments_that_are_not_paths_show_nothing_more():
    assert sandbox().bot_folders([PYTHON, "-c", "print(1)", "/usr/share/dict", "/no/such/file"]) == []


def test_a_sandbox_without_bubblewrap_or_slot_users_says_why_it_cannot_run(tmp_path):
    lacking = Sandbox(SandboxConfig(bwrap=str(tmp_path / "bwrap"), users=("po-no-such-user",)))

    assert lacking.problems()[:2] == [
        f"bubblewrap ({tmp_path / 'bwrap'}) is not installed (apt-get install bubblewrap)",
        "none of the slot users exists or is unprivileged: po-no-such-user (create them with "
        ".ci/sandbox-users)",
    ]


def test_registering_a_program_among_the_services_files_is_refused(db, staff):
    with pytest.raises(UserError, match="put the bot in a folder of its own") as caught:
        bot_register(
            name="Snoop",
            game_id="nacho_pile",
            kind="external",
            command=[PYTHON, str(settings.BASE_DIR / "league" / "settings" / "base.py")],
            by=staff,
        )
    assert caught.value.field == "command"


@pytest.mark.parametrize(
    ("cgroup", "controllers", "said"),
    [
        ("8:pids:/\n0::/\n", None, "no cgroup v2 of its own (a cgroup v1 or hybrid hierarchy)"),
        ("0::/\n", "cpu memory pids", "its cgroup / is not delegated to it with the memory controller"),
        ("0::/worker\n", "cpu pids", "its cgroup /worker is not delegated to it with the memory controller"),
        (
            "0::/worker\n",
            "cpu memory pids",
            "its cgroup /worker is delegated with the memory controller (not used yet)",
        ),
    ],
)
def test_a_worker_says_whether_a_memory_cgroup_is_delegated_to_it(tmp_path, cgroup, controllers, said):
    (tmp_path / "cgroup").write_text(cgroup)
    root = tmp_path / "fs"
    own = root / cgroup.strip().rsplit("::", 1)[-1].lstrip("/")
    own.mkdir(parents=True, exist_ok=True)
    if controllers is not None:
        (own / "cgroup.controllers").write_text(controllers)

    assert delegated_memory_cgroup(str(tmp_path / "cgroup"), str(root)) == said
