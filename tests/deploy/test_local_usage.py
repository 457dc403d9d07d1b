"""What `make run` tells the person who started it: where the gateway listens and how to play."""

from __future__ import annotations

import subprocess
from typing import NoReturn

import pytest

from deploy import local, programs
from services.common import registry


def test_usage_names_the_gateway_address_and_the_bg_commands() -> None:
    rows, _ = local.plan({"REDIS_URL": "redis://127.0.0.1:1/0", "GATEWAY_PORT": "50999"})
    lines = local.usage(rows)
    assert "The gateway listens on 127.0.0.1:50999." in lines[0]
    assert any(".venv/bin/bg --gateway 127.0.0.1:50999 guest" in line for line in lines)
    title = next(iter(registry.games()))
    assert any(f"bg new {title} --seats 3 --bots 2 --play" in line for line in lines)
    assert lines[-1] == "Ctrl-C stops everything."


def no_subprocess(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError(f"ran {args}")


def test_a_program_on_path_is_used_and_never_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(programs.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(programs.subprocess, "run", no_subprocess)
    notes: list[str] = []
    assert programs.installed("redis-server", {}, notes) == "/usr/bin/redis-server"
    assert notes == []


def test_a_missing_program_is_installed_only_by_root_with_apt_get(monkeypatch: pytest.MonkeyPatch) -> None:
    installed: set[str] = set()
    commands: list[list[str]] = []

    def which(name: str) -> str | None:
        return f"/usr/bin/{name}" if name in installed else None

    def run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        commands.append(argv)
        installed.add("redis-server")
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(programs.shutil, "which", which)
    monkeypatch.setattr(programs.subprocess, "run", no_subprocess)
    notes: list[str] = []
    monkeypatch.setattr(programs.os, "geteuid", lambda: 0)
    assert programs.installed("redis-server", {}, notes) is None  # root, but no apt-get
    installed.add("apt-get")
    monkeypatch.setattr(programs.os, "geteuid", lambda: 1000)
    assert programs.installed("redis-server", {}, notes) is None  # apt-get, but not root
    assert notes == []

    monkeypatch.setattr(programs.os, "geteuid", lambda: 0)
    monkeypatch.setattr(programs.subprocess, "run", run)
    assert programs.installed("redis-server", {"INSTALL_PACKAGES": "1"}, notes) == "/usr/bin/redis-server"
    assert commands == [["apt-get", "install", "-y", "-qq", "--no-install-recommends", "redis-server"]]
    assert len(notes) == 1 and "installing" in notes[0]
