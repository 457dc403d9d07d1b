"""The programs the suite needs, on a machine without redis-server: `make setup`, `make test` and the
tests' own `redis_server()` install it. The machine's redis-server stays: each test runs on a PATH
holding every program of this one except redis-server and apt-get, plus a stand-in apt-get that
records its arguments and "installs" redis-server by linking the real one into that PATH."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from deploy import programs
from deploy.throwaway import redis_server

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = {"redis-server", "apt-get"}
APT_GET = """#!/bin/sh
echo "$*" >> {log}
case "$*" in *install*redis-server*) ln -sf {real} {bin}/redis-server ;; esac
"""


def bare_path(tmp_path: Path, apt_get: bool) -> tuple[str, Path]:
    """A PATH without redis-server (and with the stand-in apt-get if asked); its apt-get log."""
    real = shutil.which("redis-server")
    assert real is not None, "this machine's redis-server (`make test` installs it)"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if not Path(directory).is_dir():
            continue
        for entry in Path(directory).iterdir():
            link = bin_dir / entry.name
            if entry.name not in LEFT_OUT and not link.exists() and os.access(entry, os.X_OK):
                link.symlink_to(entry.resolve())
    log = tmp_path / "apt-get.log"
    log.touch()
    if apt_get:
        script = bin_dir / "apt-get"
        script.write_text(APT_GET.format(log=log, real=real, bin=bin_dir))
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    assert shutil.which("redis-server", path=str(bin_dir)) is None
    return str(bin_dir), log


def make(target: str, path: str, *variables: str) -> subprocess.CompletedProcess[str]:
    """`make TARGET` in the repository on this PATH, not as a sub-make of whatever runs the tests."""
    env = {key: value for key, value in os.environ.items() if key not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    return subprocess.run(
        ["make", target, *variables],
        cwd=ROOT,
        env={**env, "PATH": path},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="installing packages needs root")


@needs_root
def test_make_setup_installs_a_missing_redis_server(tmp_path: Path) -> None:
    path, log = bare_path(tmp_path, apt_get=True)
    result = make("setup", path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "install -y -qq --no-install-recommends redis-server" in log.read_text()
    assert "installing Debian's package redis-server" in result.stdout
    assert shutil.which("redis-server", path=path) is not None


@needs_root
def test_make_test_installs_a_missing_redis_server_before_the_tests_run(tmp_path: Path) -> None:
    path, log = bare_path(tmp_path, apt_get=True)
    result = make("test", path, "PYTEST_ARGS=-q --collect-only tests/deploy/test_local_usage.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "install -y -qq --no-install-recommends redis-server" in log.read_text()


def test_without_a_way_to_install_it_setup_names_what_is_missing(tmp_path: Path) -> None:
    path, _ = bare_path(tmp_path, apt_get=False)
    result = subprocess.run(
        [sys.executable, "-m", "deploy.programs"],
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "redis-server is not installed: install Debian's package redis-server" in result.stderr


@needs_root
def test_the_tests_redis_server_installs_a_missing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, log = bare_path(tmp_path, apt_get=True)
    monkeypatch.setenv("PATH", path)
    with redis_server() as url:
        assert redis.Redis.from_url(url).ping()
    assert "install -y -qq --no-install-recommends redis-server" in log.read_text()


def test_installing_is_never_tried_when_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, log = bare_path(tmp_path, apt_get=True)
    monkeypatch.setenv("PATH", path)
    notes: list[str] = []
    assert programs.installed("redis-server", {"INSTALL_PACKAGES": "0"}, notes) is None
    assert log.read_text() == "" and notes == []
