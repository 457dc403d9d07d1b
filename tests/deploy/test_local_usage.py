"""What `make run` tells the person who started it: where the gateway listens and how to play."""

from __future__ import annotations

import shutil
import subprocess
from typing import NoReturn

import pytest

from deploy import local


def test_usage_names_the_gateway_address_and_the_bg_commands() -> None:
    rows, _ = local.plan({"REDIS_URL": "redis://127.0.0.1:1/0", "GATEWAY_PORT": "50999"})
    lines = local.usage(rows)
    assert "The gateway listens on 127.0.0.1:50999." in lines[0]
    assert any(".venv/bin/bg --gateway 127.0.0.1:50999 guest" in line for line in lines)
    assert any("bg new puertorico --seats 3 --bots 2 --play" in line for line in lines)
    assert lines[-1] == "Ctrl-C stops everything."


def no_subprocess(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError(f"ran {args}")


def test_redis_binary_is_the_one_on_path_and_never_installed_when_told_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No redis-server, but root with apt-get: only INSTALL_REDIS=0 keeps it from installing one.
    monkeypatch.setattr(local.shutil, "which", lambda name: "/usr/bin/apt-get" if name == "apt-get" else None)
    monkeypatch.setattr(local.os, "geteuid", lambda: 0)
    monkeypatch.setattr(local.subprocess, "run", no_subprocess)
    notes: list[str] = []
    assert local.redis_server_binary({"INSTALL_REDIS": "0"}, notes) == shutil.which("redis-server")
    assert local.redis_server_binary({"INSTALL_REDIS": "0"}, notes) is None
    assert notes == []

    monkeypatch.setattr(local.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert local.redis_server_binary({}, notes) == "/usr/bin/redis-server"
    assert notes == []


def test_a_missing_redis_is_installed_only_by_root_with_apt_get(monkeypatch: pytest.MonkeyPatch) -> None:
    installed: set[str] = set()
    commands: list[list[str]] = []

    def which(name: str) -> str | None:
        return f"/usr/bin/{name}" if name in installed else None

    def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        commands.append(argv)
        installed.add("redis-server")
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(local.shutil, "which", which)
    monkeypatch.setattr(local.subprocess, "run", no_subprocess)
    notes: list[str] = []
    monkeypatch.setattr(local.os, "geteuid", lambda: 0)
    assert local.redis_server_binary({}, notes) is None  # root, but no apt-get
    installed.add("apt-get")
    monkeypatch.setattr(local.os, "geteuid", lambda: 1000)
    assert local.redis_server_binary({}, notes) is None  # apt-get, but not root
    assert notes == []

    monkeypatch.setattr(local.os, "geteuid", lambda: 0)
    monkeypatch.setattr(local.subprocess, "run", run)
    assert local.redis_server_binary({"INSTALL_REDIS": "1"}, notes) == "/usr/bin/redis-server"
    assert commands == [["apt-get", "install", "-y", "-qq", "--no-install-recommends", "redis-server"]]
    assert len(notes) == 1 and "installing" in notes[0]
