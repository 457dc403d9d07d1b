"""Every npm package the project pins (its buf, the web client's, the TypeScript client's) installs on
the Node.js of this machine and CI (Debian's, 20): `npm ci --engine-strict` refuses a package whose
`engines` wants a newer Node, where plain `npm ci` only warns (EBADENGINE). The web client's packages
also support the Node.js of the container image's web stage (deploy/Dockerfile's NODE_IMAGE)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "tools": ROOT,
    "web client": ROOT / "clients" / "web",
    "TypeScript client": ROOT / "clients" / "typescript",
}
NPM = shutil.which("npm")


@pytest.mark.parametrize("folder", PACKAGES.values(), ids=PACKAGES.keys())
def test_every_pinned_package_supports_this_node(folder: Path, tmp_path: Path) -> None:
    if NPM is None:
        pytest.fail("npm is needed (Debian's nodejs and npm)")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(folder / name, tmp_path / name)
    checked = subprocess.run(
        [NPM, "ci", "--engine-strict", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stderr


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def supports(engines: str, node: tuple[int, ...]) -> bool:
    """Whether a package's `engines.node` range admits `node`, for the forms the locks hold (`*`,
    `N.*`, `>=N[.N[.N]]`, alternatives joined by `||`); any other form fails the test, named."""
    for alternative in (part.strip() for part in engines.split("||")):
        if alternative == "*":
            return True
        if match := re.fullmatch(r"(\d+)\.\*", alternative):
            if node[0] == int(match.group(1)):
                return True
        elif match := re.fullmatch(r">=\s*(\d+(?:\.\d+){0,2})(?:\.\*)?", alternative):
            if node >= _version(match.group(1)):
                return True
        else:
            pytest.fail(f"an engines range this test cannot read: {engines!r}")
    return False


def test_the_range_reader_refuses_an_older_node() -> None:
    assert supports(">=20", (20, 20, 0)) and not supports(">=22", (20, 20, 0))
    assert supports("6.* || 8.* || >= 10.*", (20, 0, 0)) and not supports("6.* || 8.*", (20, 0, 0))
    assert not supports(">= 20.21", (20, 20, 0))


def test_the_image_web_stage_node_supports_every_web_client_package() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    image = re.search(r"^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-bookworm-slim$", dockerfile, re.M)
    assert image, "the web stage's Node.js is one pinned ARG"
    node = _version(image.group(1))
    lock = json.loads((ROOT / "clients" / "web" / "package-lock.json").read_text())
    wanting = {
        path: entry["engines"]["node"]
        for path, entry in lock["packages"].items()
        if isinstance(entry.get("engines"), dict) and "node" in entry["engines"]
    }
    assert wanting, "the lock names the Node.js its packages want"
    assert not {path: want for path, want in wanting.items() if not supports(want, node)}
