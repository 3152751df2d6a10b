"""The system-call filter as assembled, without a kernel: the instructions it uses are run here by a small
interpreter over `struct seccomp_data`, for each architecture the filter knows. The real filter in the real
sandbox is attacked in test_covert_channels.py."""

import errno
import struct

import pytest

from league.programs import seccomp

EPERM = seccomp.RET_ERRNO | errno.EPERM
AUDIT_ARCH_I386 = 0x40000003


def run(program: bytes, nr: int, arch: int, *args: int) -> int:
    """What `program` returns for the call `nr` of `arch` with `args`, as the kernel would run it."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *[arg & (2**64 - 1) for arg in [*args, *[0] * (6 - len(args))]])
    codes = [seccomp.INSTRUCTION.unpack_from(program, at) for at in range(0, len(program), 8)]
    accumulator, pc = 0, 0
    while True:
        code, jt, jf, k = codes[pc]
        pc += 1
        if code == seccomp.LD_W_ABS:
            (accumulator,) = struct.unpack_from("=I", data, k)
        elif code == seccomp.JEQ:
            pc += jt if accumulator == k else jf
        elif code == seccomp.JGE:
            pc += jt if accumulator >= k else jf
        elif code == seccomp.RET:
            return k
        else:
            raise AssertionError(f"instruction {code:#x} is not one the filter may use")


ARCHES = ["x86_64", "aarch64"]


@pytest.mark.parametrize("machine", ARCHES)
def test_the_calls_that_build_a_channel_are_refused_with_eperm(machine):
    arch = seccomp.architecture(machine)
    program = seccomp.program(machine)
    for name in ("flock", "inotify_init1", "fanotify_init", "io_uring_setup"):
        assert run(program, arch.calls[name], arch.audit) == EPERM, name
    if "inotify_init" in arch.calls:
        assert run(program, arch.calls["inotify_init"], arch.audit) == EPERM


@pytest.mark.parametrize("machine", ARCHES)
def test_fcntl_is_refused_for_locks_leases_and_notification_and_allowed_otherwise(machine):
    arch = seccomp.architecture(machine)
    program = seccomp.program(machine)
    fcntl = arch.calls["fcntl"]
    for command in (5, 6, 7, 12, 13, 14, 36, 37, 38, 1024, 1025, 1026):
        assert run(program, fcntl, arch.audit, 3, command) == EPERM, command
    # F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC: what programs do every day
    for command in (0, 1, 2, 3, 4, 1030):
        assert run(program, fcntl, arch.audit, 3, command) == seccomp.RET_ALLOW, command
    # the kernel reads the command as a 32-bit int: high bits do not hide F_SETLK
    assert run(program, fcntl, arch.audit, 3, (1 << 32) | 6) == EPERM


@pytest.mark.parametrize("machine", ARCHES)
def test_sockets_are_refused_for_netlink_and_vsock_only(machine):
    arch = seccomp.architecture(machine)
    program = seccomp.program(machine)
    for call in ("socket", "socketpair"):
        assert run(program, arch.calls[call], arch.audit, 16, 3, 0) == EPERM  # AF_NETLINK
        assert run(program, arch.calls[call], arch.audit, 40, 1, 0) == EPERM  # AF_VSOCK
        for family in (1, 2, 10):  # AF_UNIX, AF_INET, AF_INET6 (the network namespace answers those)
            assert run(program, arch.calls[call], arch.audit, family, 1, 0) == seccomp.RET_ALLOW


@pytest.mark.parametrize("machine", ARCHES)
def test_other_calls_pass(machine):
    arch = seccomp.architecture(machine)
    program = seccomp.program(machine)
    refused = set(arch.calls.values())
    for nr in range(0, 460):
        if nr not in refused:
            assert run(program, nr, arch.audit, 3, 6) == seccomp.RET_ALLOW, nr


def test_another_architecture_or_x32_is_killed_before_any_number_is_read():
    program = seccomp.program("x86_64")
    # flock's x86-64 number under the 32-bit calling convention is another call: the process dies instead
    assert run(program, 73, AUDIT_ARCH_I386) == seccomp.RET_KILL_PROCESS
    assert run(program, 143, AUDIT_ARCH_I386) == seccomp.RET_KILL_PROCESS  # flock on i386
    assert run(program, 0x40000000 | 73, seccomp.ARCHITECTURES["x86_64"].audit) == seccomp.RET_KILL_PROCESS
    assert run(seccomp.program("aarch64"), 32, seccomp.ARCHITECTURES["x86_64"].audit) == (
        seccomp.RET_KILL_PROCESS
    )


def test_the_bytes_are_sock_filter_instructions_that_start_by_loading_the_architecture():
    program = seccomp.program("x86_64")
    assert len(program) % 8 == 0
    assert program[:16] == struct.pack("=HBBI", 0x20, 0, 0, 4) + struct.pack("=HBBI", 0x15, 1, 0, 0xC000003E)
    assert seccomp.program("amd64") == program


def test_an_unknown_architecture_has_no_filter_and_says_so():
    with pytest.raises(seccomp.SeccompUnavailable) as refused:
        seccomp.program("riscv64")
    assert str(refused.value) == "no system-call filter is known for the riscv64 architecture"
