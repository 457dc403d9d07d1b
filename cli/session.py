"""The saved session of `bg`: gateway address, token and name in $BG_HOME/session.json (default
~/.config/bg), readable by its owner only."""

from __future__ import annotations

import json
import os
from pathlib import Path

DEFAULT_GATEWAY = "127.0.0.1:50050"


def home() -> Path:
    """Where the session file lives."""
    return Path(os.environ.get("BG_HOME") or Path.home() / ".config" / "bg")


def load() -> dict[str, str]:
    """The saved session, or an empty one."""
    path = home() / "session.json"
    if not path.exists():
        return {}
    data: dict[str, str] = json.loads(path.read_text())
    return data


def save(data: dict[str, str]) -> None:
    """Save the session, readable by its owner only."""
    folder = home()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "session.json"
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def gateway_address(flag: str | None, saved: dict[str, str]) -> str:
    """The gateway: --gateway, else $BG_GATEWAY, else the saved one, else the local default."""
    return flag or os.environ.get("BG_GATEWAY") or saved.get("gateway") or DEFAULT_GATEWAY
