"""The check of an upload's modules (`league.programs.checking`): every module compiled in a child process
under RLIMIT_CPU, RLIMIT_AS and a wall deadline. The inputs on which CPython's compiler is quadratic are
refused within those bounds: each is proven in a child process of the test under its own RLIMIT_CPU (the
check's parent side compiles nothing itself, so it finishes far inside it), never by a wall clock."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

import pytest

from league.programs import checking
from league.programs.archives import ArchiveLimits, ProgramRefused, check_program
from league.programs.checking import CheckLimits, CheckUnavailable, compile_check, own_modules, python_sources
from league.programs.sandbox import SAFE_PATH
from league.programs.uploads import check_limits
from tests.league.bots.crafted import BOT, HELPER, MAIN, TOML, zip_bytes

FSTRING = b"x=f'" + b"{1}" * 50_000 + b"'\n"  # 150 KB: seconds of CPU to compile
ONES = b"x=[" + b"1," * (1 << 20) + b"]\n"  # a 2 MiB literal list: close to 1 GB to compile
TEST_CPU_SECONDS = 8  # the test's child: the check's parent side must finish well inside this

# The test's child: its own RLIMIT_CPU, then the check (loaded from its file, without Django) on one module;
# it prints the verdict and the CPU seconds its own child (the compiler) used.
PROBE = textwrap.dedent(
    """
    import importlib.util, json, resource, sys
    resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))
    spec = importlib.util.spec_from_file_location("checking", {path!r})
    checking = importlib.util.module_from_spec(spec)
    sys.modules["checking"] = checking
    spec.loader.exec_module(checking)
    source = sys.stdin.buffer.read()
    limits = checking.CheckLimits(cpu_seconds={check_cpu}, memory_mb={check_mb}, wall_seconds=600)
    verdict = checking.compile_check({{"bot.py": source}}, limits)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({{"verdict": verdict, "compiler_cpu": used.ru_utime + used.ru_stime}}))
    """
)


def check_in_child(source: bytes, *, check_cpu: int, check_mb: int) -> dict:
    script = PROBE.format(
        cpu=TEST_CPU_SECONDS, path=checking.__file__, check_cpu=check_cpu, check_mb=check_mb
    )
    child = subprocess.run(
        [sys.executable, "-I", "-c", script], input=source, capture_output=True, timeout=600, check=False
    )
    assert child.returncode == 0, child.stderr.decode()[-2000:]
    return json.loads(child.stdout)


def test_a_quadratic_f_string_is_refused_at_the_cpu_bound():
    result = check_in_child(FSTRING, check_cpu=1, check_mb=512)
    assert result["verdict"] == (
        "compiling bot.py took more than 1 CPU second (the bounds of the check: 1 CPU second and 512 MB): "
        "make it smaller or simpler"
    )
    assert result["compiler_cpu"] <= 2.5  # RLIMIT_CPU: SIGXCPU at 1 s, SIGKILL at 2 s at the latest


def test_a_two_mib_literal_list_is_refused_at_the_memory_bound():
    assert len(ONES) > 2 << 20
    result = check_in_child(ONES, check_cpu=30, check_mb=256)
    assert result["verdict"] == "compiling bot.py needs more than 256 MB (the check's memory bound)"


@pytest.mark.parametrize("source", [FSTRING, ONES], ids=["f-string of 150 KB", "literal list of 2 MiB"])
def test_the_default_bounds_refuse_both(source):
    defaults = CheckLimits()
    assert (defaults.cpu_seconds, defaults.memory_mb, defaults.wall_seconds) == (1, 256, 30.0)
    result = check_in_child(source, check_cpu=defaults.cpu_seconds, check_mb=defaults.memory_mb)
    assert result["verdict"] in (
        "compiling bot.py took more than 1 CPU second (the bounds of the check: 1 CPU second and 256 MB): "
        "make it smaller or simpler",
        "compiling bot.py needs more than 256 MB (the check's memory bound)",
    )


def test_the_wall_deadline_stops_a_check_that_takes_too_long():
    # A wall deadline shorter than the compiler's start: the check says where it was, if anywhere.
    limits = CheckLimits(cpu_seconds=30, memory_mb=512, wall_seconds=0.001)
    verdict = compile_check({"bot.py": FSTRING}, limits)
    assert verdict == "compiling the program took longer than 0.001 seconds: make it smaller or simpler"


def test_every_module_is_compiled_and_the_first_fault_named_with_its_line():
    limits = CheckLimits()
    assert compile_check({"bot.py": BOT}, limits) is None
    assert compile_check({"helper.py": HELPER, "main.py": MAIN}, limits) is None
    sources = {"a/ok.py": b"x = 1\n", "b/broken.py": b"x = 1\ndef broken(:\n", "c/never.py": b"("}
    assert compile_check(sources, limits) == "b/broken.py line 2: invalid syntax"
    assert compile_check({"bot.py": b"x = '\x00'\n"}, limits) == (
        "bot.py: source code string cannot contain null bytes"
    )
    assert compile_check({"bot.py": b"x = " + b"(" * 300 + b")" * 300}, limits) == (
        "bot.py line 1: too many nested parentheses"
    )
    assert compile_check({"bot.py": b"print('\xff')\n"}, limits) == "bot.py is not UTF-8 text (byte 7)"


def test_the_modules_of_a_program_are_its_python_files():
    archive = zip_bytes({"bot.toml": TOML, "main.py": MAIN, "lib/helper.py": HELPER, "data.txt": b"("})
    checked = check_program(archive, ArchiveLimits())
    assert python_sources(checked.contents) == {"lib/helper.py": HELPER, "main.py": MAIN}


def test_the_upload_check_reads_but_never_compiles():
    # The archive check (run in the request) refuses what is not UTF-8 and lets a syntax error through.
    assert check_program(b"def broken(:\n", ArchiveLimits()).entry == "bot.py"
    with pytest.raises(ProgramRefused) as caught:
        archive = zip_bytes({"bot.toml": TOML, "main.py": MAIN, "lib.py": b"x='\xe9'\n"})
        check_program(archive, ArchiveLimits())
    assert str(caught.value) == "lib.py is not UTF-8 text (byte 3)"


def test_a_check_that_cannot_start_is_the_machines_fault_not_the_programs():
    with pytest.raises(CheckUnavailable) as caught:
        compile_check({"bot.py": BOT}, CheckLimits(), python="/nonexistent/python3")
    assert str(caught.value).startswith("the compile check could not start /nonexistent/python3: ")


def test_an_import_the_bots_python_lacks_is_refused_at_the_check_with_its_file_and_line():
    limits = check_limits()
    assert limits.runtime == shutil.which("python3", path=SAFE_PATH)
    sources = {
        "main.py": b"import json\nimport helper\nfrom lib import tables\nfrom . import sibling\n",
        "helper.py": b"import random, os.path\n\nimport nonexistent_chicken_module.sub\nimport zzz_missing\n",
        "lib/tables.py": b"from itertools import chain\n",
    }
    assert compile_check(sources, limits) == (
        "helper.py line 3 imports nonexistent_chicken_module (and zzz_missing), which the bots' Python does "
        "not have: put the module in the upload, or use the standard library"
    )
    del sources["helper.py"]
    assert compile_check({**sources, "helper.py": b"import math\n"}, limits) is None
    # Without the bots' interpreter (a machine without one), imports are not looked up.
    assert compile_check({"bot.py": b"import zzz_missing\n"}, CheckLimits()) is None


def test_the_own_modules_are_every_file_and_folder_name_of_the_upload():
    assert own_modules(["main.py", "lib/tables.py", "data/x.json"]) == {
        "main",
        "lib",
        "tables",
        "data",
        "x.json",
    }
