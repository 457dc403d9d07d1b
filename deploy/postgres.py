"""A PostgreSQL server of its own, for `make run` when DATABASE_URL is not set and for the tests
(`deploy.throwaway.postgres_server`): Debian's postgresql 15 (`deploy.programs` installs it), a data
directory of its own made by `initdb` on first use, listening on one loopback address and port, with
its socket in the data directory.

PostgreSQL refuses to run as root, so when this runs as root, `initdb` runs as the `postgres` user
(with `runuser`), the data directory is that user's, and the server drops to it before it starts. The
one database user is `postgres`, trusted on loopback: a local server for one machine, not a shared one.

Usage: python -m deploy.postgres DATA_DIR HOST PORT   (initdb if needed, then become the server)
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg

SERVER_USER = "postgres"
DATABASE = "postgres"
# A throwaway server need not survive a crash: no fsync, no full-page writes.
THROWAWAY_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
PR_SET_PDEATHSIG = 1


def as_root() -> bool:
    """Whether this process runs as root (and so must hand PostgreSQL to SERVER_USER)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def server_user() -> pwd.struct_passwd | None:
    """The account the server runs as when started by root (None when not root)."""
    return pwd.getpwnam(SERVER_USER) if as_root() else None


def hand_over(path: Path) -> None:
    """Give `path` to the server's account when running as root (the server must own its data)."""
    user = server_user()
    if user is not None:
        os.chown(path, user.pw_uid, user.pw_gid)


def init(bin_dir: Path, data: Path, durable: bool = True) -> None:
    """Make the data directory with `initdb` unless it holds a cluster already."""
    if (data / "PG_VERSION").exists():
        return
    data.mkdir(parents=True, exist_ok=True)
    data.chmod(0o700)
    hand_over(data)
    argv = [str(bin_dir / "initdb"), "-D", str(data), "-U", SERVER_USER, "-A", "trust", "-E", "UTF8"]
    if not durable:
        argv.append("--no-sync")
    if as_root():
        argv = [shutil.which("runuser") or "runuser", "-u", SERVER_USER, "--", *argv]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd="/")


def server_argv(bin_dir: Path, data: Path, host: str, port: int, durable: bool = True) -> list[str]:
    """The command line of the server on `data`, listening on host:port only."""
    argv = [str(bin_dir / "postgres"), "-D", str(data), "-h", host, "-p", str(port), "-k", str(data)]
    for setting in () if durable else THROWAWAY_SETTINGS:
        argv += ["-c", setting]
    return argv


def url(host: str, port: int) -> str:
    """The DATABASE_URL of a server made here."""
    return f"postgresql://{SERVER_USER}@{host}:{port}/{DATABASE}"


def answers(database_url: str) -> bool:
    """Whether the server of `database_url` accepts a connection now."""
    try:
        with psycopg.connect(database_url, connect_timeout=1):
            return True
    except psycopg.OperationalError:
        return False


def become_server_user() -> None:
    """Drop root for the server's account (keeping the signal asked for when the parent dies, which a
    change of user clears)."""
    user = server_user()
    if user is None:
        return
    os.setgid(user.pw_gid)
    os.initgroups(user.pw_name, user.pw_gid)
    os.setuid(user.pw_uid)
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)  # prctl(2) is variadic: pass the unsigned long it reads
        if libc.prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGTERM)) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")


def main(argv: list[str]) -> int:
    """initdb DATA_DIR if needed, then replace this process by the server."""
    from deploy import programs

    data, host, port = Path(argv[0]).resolve(), argv[1], int(argv[2])
    notes: list[str] = []
    binary = programs.installed("postgres", os.environ, notes)
    for note in notes:
        print(f"postgres: {note}", flush=True)
    if binary is None:
        print(programs.missing_hint("postgres"), file=sys.stderr)
        return 1
    bin_dir = Path(binary).parent
    init(bin_dir, data)
    become_server_user()
    command = server_argv(bin_dir, data, host, port)
    os.execv(command[0], command)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
