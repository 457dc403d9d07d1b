"""`bg` as a command of the shell: its output piped into a reader that stops early (`bg ... | head`), and a
gateway address where nothing answers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.throwaway import free_port
from tests.clients.conftest import Bg
from tests.clients.proxy import Proxy
from tests.deploy import facts
from tests.titles import TITLE

BROKEN_PIPE_EXIT = 128 + 13  # as a shell reports a command ended by SIGPIPE


def into_a_closed_pipe(bg: Bg, *args: str) -> tuple[int, str]:
    """Run `bg ARGS...` with its output going into a pipe whose reader has gone (as after `| head`
    stops reading); (exit code, errors)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        env = {**os.environ, "BG_HOME": str(bg.home), "BG_GATEWAY": bg.address}
        result = subprocess.run(
            [sys.executable, "-m", "cli", *args],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=facts.ROOT,
            timeout=120,
        )
    finally:
        os.close(writer)
    return result.returncode, result.stderr


@pytest.mark.parametrize(
    "args", [("leaderboard", TITLE), ("titles",), ("games",), ("lobbies",)], ids=" ".join
)
def test_bg_into_a_closed_pipe_ends_quietly(bg: Bg, args: tuple[str, ...]) -> None:
    assert bg("guest", "Pia")[0] == 0
    code, err = into_a_closed_pipe(bg, *args)
    assert err == "", "no traceback, nothing to say: the reader has what it wanted"
    assert code == BROKEN_PIPE_EXIT


def test_bg_at_an_address_where_nothing_answers_names_it(bg: Bg, tmp_path: Path) -> None:
    """Signed in at the package's gateway, a command sent elsewhere says nothing answers there (it
    is not signed in there either, but that is not the problem to fix first)."""
    assert bg("guest", "Quinn")[0] == 0
    nowhere = f"127.0.0.1:{free_port()}"
    for args in (("--gateway", nowhere, "titles"), ("--gateway", nowhere, "games")):
        code, out, err = bg(*args)
        assert code == 1 and out == ""
        assert f"nothing answers at {nowhere}" in err and "not signed in" not in err, err


def test_bg_not_signed_in_where_the_gateway_answers_says_so_naming_it(bg: Bg) -> None:
    code, out, err = bg("titles")
    assert code == 1 and out == ""
    assert f"not signed in at {bg.address}: run `bg guest NAME`" in err and "nothing answers" not in err, err
    assert bg("guest", "Rob")[0] == 0
    with Proxy(bg.address) as another:  # a gateway at another address, one bg has no session for
        code, out, err = bg("--gateway", another.address, "games")
    assert code == 1 and out == ""
    assert f"not signed in at {another.address} (your session is for {bg.address})" in err, err
