"""Every npm package the project pins (its buf, the web client's, the TypeScript client's) installs on
the Node.js of this machine and CI (Debian's, 20): `npm ci --engine-strict` refuses a package whose
`engines` wants a newer Node, where plain `npm ci` only warns (EBADENGINE)."""

from __future__ import annotations

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
