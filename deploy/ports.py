"""Whether a TCP port can be bound here, and which process listens on it (read from Linux's /proc).

The launcher checks every port it is about to give a process before it starts any, so a second
`make run` says which port is taken and by what instead of starting processes that cannot bind.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import socket
from pathlib import Path

LISTEN = "0A"  # the state column of /proc/net/tcp for a listening socket
PROC = Path("/proc")
EPHEMERAL_RANGE = PROC / "sys/net/ipv4/ip_local_port_range"
FREE_SPAN = 12_000  # free_run's ports: this many below the ephemeral ones
FREE_TRIES = 50


def taken(host: str, port: int) -> bool:
    """Whether binding host:port fails because something else has it ("" is every interface)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do: TIME_WAIT is free
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.errno == errno.EADDRINUSE
    return False


def listening_inodes(port: int, proc: Path = PROC) -> set[str]:
    """The socket inodes of every TCP socket (IPv4 or IPv6) listening on `port`."""
    inodes = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in (proc / "net" / table).read_text().splitlines()[1:]:
                fields = line.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == LISTEN and int(local.rsplit(":", 1)[1], 16) == port:
                    inodes.add(inode)
    return inodes


def listener(port: int, proc: Path = PROC) -> tuple[int, str] | None:
    """The pid and command line of a process listening on `port`; None when none can be seen (no
    /proc, or a process of another user)."""
    sockets = {f"socket:[{inode}]" for inode in listening_inodes(port, proc)}
    if not sockets:
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for fd in (entry / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in sockets:
                        command = (
                            (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                        )
                        return int(entry.name), " ".join(command.split())
    return None


def free_run(count: int) -> int:
    """The first of `count` consecutive loopback ports that are free right now, picked at random below
    the kernel's ephemeral ports: no outgoing connection takes one of them before its server binds it,
    and two test processes choosing at once seldom choose the same (the kernel soon hands a port it
    gave out and got back to the next caller, who may be the other process)."""
    low = _ephemeral_start()
    for _ in range(FREE_TRIES):
        base = random.randrange(max(1024, low - FREE_SPAN), low - count)
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no run of free ports")


def _ephemeral_start() -> int:
    """The first port of the kernel's range for outgoing connections (Linux's default if unknown)."""
    try:
        return int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768
