"""Running a driver of the web client's (`clients/web/test/*.mjs`, puppeteer-core) in Debian's headless
Chromium for its JSON report: the browser tests and `bench.boards` both launch them here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from deploy import programs
from gateway.browser import WEB_CLIENT_DIR

WEB_CLIENT = WEB_CLIENT_DIR.parent


def chromium() -> str:
    """Debian's chromium, with the fonts the page's Chinese is drawn in (both installed if need be)."""
    notes: list[str] = []
    found = programs.installed("chromium", os.environ, notes)
    if not found:
        raise RuntimeError(programs.missing_hint("chromium"))
    for package in programs.FONTS:
        if not programs.font_installed(package, os.environ, notes):
            raise RuntimeError(f"install Debian's package {package}")
    return found


def run_driver(driver: Path, env: dict[str, str], timeout: float) -> dict[str, Any]:
    """Run a Chromium driver of the web client's (`clients/web/test/*.mjs`) with `env` added to the
    environment (its E2E_* settings) and the Chromium found; the report of its last output line."""
    if not (WEB_CLIENT_DIR / "app.js").exists():
        raise RuntimeError("the web client is not built: run `make setup`")
    node = shutil.which("node")
    if not node:
        raise RuntimeError("node is not installed")
    done = subprocess.run(
        [node, str(driver)],
        cwd=WEB_CLIENT,
        env={**os.environ, "E2E_CHROMIUM": chromium(), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{driver.name} exited with {done.returncode}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return,unused-ignore]
