"""What `make run` tells the person who started it: where the gateway listens and how to play."""

from __future__ import annotations

import shutil

from deploy import local


def test_usage_names_the_gateway_address_and_the_bg_commands() -> None:
    rows, _ = local.plan({"REDIS_URL": "redis://127.0.0.1:1/0", "GATEWAY_PORT": "50999"})
    lines = local.usage(rows)
    assert "The gateway listens on 127.0.0.1:50999." in lines[0]
    assert any(".venv/bin/bg --gateway 127.0.0.1:50999 guest" in line for line in lines)
    assert any("bg new puertorico --seats 3 --bots 2 --play" in line for line in lines)
    assert lines[-1] == "Ctrl-C stops everything."


def test_redis_binary_is_the_one_on_path_and_never_installed_when_told_not_to() -> None:
    notes: list[str] = []
    assert local.redis_server_binary({"INSTALL_REDIS": "0"}, notes) == shutil.which("redis-server")
    assert notes == []
