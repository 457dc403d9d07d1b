"""`bg register`, `bg sign-in` and what `bg` says when the suite is not running."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import sys
import time
import uuid
from dataclasses import replace
from pathlib import Path

from deploy.throwaway import free_port, redis_server
from tests.clients.conftest import Bg
from tests.deploy import facts
from tests.gateway.support import GatewayProcess


def test_bg_registers_an_account_and_signs_it_in_again(bg: Bg, tmp_path: Path) -> None:
    name = f"user_{uuid.uuid4().hex[:8]}"
    code, out, err = bg("register", name, "--display-name", "Rita", stdin="correct horse battery\n")
    assert code == 0 and out.startswith("signed in as Rita (player "), err
    code, out, err = bg("whoami")
    assert code == 0 and out.startswith("Rita (") and "guest" not in out, err

    elsewhere = Bg(tmp_path / "another-terminal", bg.address)
    code, out, err = elsewhere("sign-in", name, "--password", "correct horse battery")
    assert code == 0 and out.startswith("signed in as Rita (player "), err
    assert elsewhere("whoami")[1].startswith("Rita (")

    code, out, err = Bg(tmp_path / "third", bg.address)("sign-in", name, stdin="wrong password\n")
    assert code == 1 and err.startswith("bg: UNAUTHENTICATED: ")


def test_bg_register_refuses_a_taken_name(bg: Bg) -> None:
    name = f"user_{uuid.uuid4().hex[:8]}"
    assert bg("register", name, "--password", "a long password")[0] == 0
    code, _, err = bg("register", name, "--password", "another password")
    assert code == 1 and err.startswith("bg: ALREADY_EXISTS: ")


def test_with_the_suite_down_bg_says_how_to_start_it(tmp_path: Path) -> None:
    down = Bg(tmp_path / "bg", f"127.0.0.1:{free_port()}")
    code, out, err = down("guest", "Nobody")
    assert code != 0 and out == ""
    assert "nothing answers at 127.0.0.1:" in err and "`make run`" in err
    assert "UNAVAILABLE" not in err, "no raw status code for a person"


def at_terminal(bg: Bg, args: list[str], answers: dict[str, str], timeout: float = 60) -> tuple[int, str]:
    """Run `bg ARGS...` on a pseudo-terminal, typing each answer at its prompt; (exit code, screen)."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: bg with the pseudo-terminal as its controlling terminal
        os.chdir(facts.ROOT)
        env = {**os.environ, "BG_HOME": str(bg.home), "BG_GATEWAY": bg.address}
        os.execve(sys.executable, [sys.executable, "-m", "cli", *args], env)
    screen, pending = "", dict(answers)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([terminal], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(terminal, 4096).decode(errors="replace")
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        screen += chunk
        for prompt in list(pending):
            if screen.rstrip().endswith(prompt.rstrip()):
                os.write(terminal, (pending.pop(prompt) + "\n").encode())
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), screen


def test_bg_register_asks_for_the_password_twice_at_a_terminal(bg: Bg) -> None:
    name = f"user_{uuid.uuid4().hex[:8]}"
    code, screen = at_terminal(
        bg, ["register", name], {"password: ": "typed secretly", "password again: ": "typed secretly"}
    )
    assert code == 0 and f"signed in as {name} (player " in screen, screen
    assert "typed secretly" not in screen, "the password is not echoed"
    code, screen = at_terminal(
        bg, ["register", f"{name}x"], {"password: ": "one password", "password again: ": "another one"}
    )
    assert code != 0 and "the two passwords differ" in screen


def test_with_the_store_down_bg_says_how_to_start_the_suite(gateway: GatewayProcess, tmp_path: Path) -> None:
    with contextlib.ExitStack() as running:
        with redis_server() as url:
            process = running.enter_context(GatewayProcess(replace(gateway.settings, redis_url=url)))
        code, out, err = Bg(tmp_path / "bg", process.address)("guest", "Nobody")  # its Redis is gone
    assert code != 0 and out == ""
    assert f"the gateway at {process.address} answers, but " in err and "`make run`" in err, err
    assert "UNAVAILABLE" not in err
