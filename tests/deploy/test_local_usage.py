"""What `make run` tells the person who started it: where the gateway listens and how to play."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path
from typing import NoReturn

import pytest

from deploy import local, programs
from services.common import registry
from tests.deploy.test_local import launcher, read_until_ready

__all__ = ["launcher"]  # the fixture, shared with the launcher's own tests

ROOT = Path(__file__).resolve().parents[2]


def test_usage_names_the_gateway_address_and_the_bg_commands() -> None:
    rows, _ = local.plan({"REDIS_URL": "redis://127.0.0.1:1/0", "GATEWAY_PORT": "50999"})
    lines = local.usage(rows)
    assert "The gateway listens on 127.0.0.1:50999." in lines[0]
    assert any(".venv/bin/bg --gateway 127.0.0.1:50999 guest" in line for line in lines)
    title = next(iter(registry.games()))
    assert any(f"bg new {title} --seats 3 --bots 2 --play" in line for line in lines)
    assert lines[-1] == "Ctrl-C stops everything."


def hint_commands(lines: list[str]) -> list[list[str]]:
    """The commands the lines tell the person to run to call a server directly (not `bg`'s)."""
    commands = [shlex.split(line) for line in lines if line.startswith("  ") and "bin/bg " not in line]
    assert commands, lines
    return commands


def run_hint(command: list[str]) -> str:
    """Run one hinted command from the repository root, as the person would; its output."""
    try:
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    except FileNotFoundError as error:
        pytest.fail(f"the hint names a program `make setup` does not install: {error}")
    assert result.returncode == 0, f"{shlex.join(command)}: {result.stderr}"
    return result.stdout


def test_the_printed_calls_work_against_the_running_gateway_and_rules_services(
    launcher: tuple[subprocess.Popen[str], dict[str, str]],
) -> None:
    """Every command `make run` prints to call a server directly, run as printed against the servers
    it started: the gateway's (printed after `ready` and the table of processes) and those printed
    when no gateway runs."""
    process, env = launcher
    assert process.stdout is not None
    read_until_ready(process)
    printed = []
    for line in process.stdout:
        printed.append(line.partition("launcher | ")[2].rstrip("\n"))
        if printed[-1] == "Ctrl-C stops everything.":
            break
    hint = printed[next(i for i, line in enumerate(printed) if line.startswith("The gateway listens")) :]
    gateway_calls = [run_hint(command) for command in hint_commands(hint)]
    assert "boardgame.gateway.v1.GameService" in gateway_calls[0]
    assert any('"token"' in output for output in gateway_calls[1:])
    rows, _ = local.plan(env)
    rules_only = [row for row in rows if "RULES_ADDRESS" in row.env]
    rules_calls = [run_hint(command) for command in hint_commands(local.usage(rules_only))]
    assert "boardgame.rules.v1.RulesService" in rules_calls[0]
    assert any(f'"name": "{registry.GAME_MODULES[0].rsplit(".", 1)[-1]}"' in out for out in rules_calls[1:])


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


def test_the_client_docs_show_the_calls_make_run_prints() -> None:
    rows, _ = local.plan({"REDIS_URL": "redis://127.0.0.1:1/0"})
    shown = (ROOT / "docs" / "clients.md").read_text().replace(" \\\n  ", " ")
    printed = [line.strip() for line in local.usage(rows) if line.startswith("  node_modules/.bin/buf curl")]
    assert printed and all(line in shown for line in printed), printed
