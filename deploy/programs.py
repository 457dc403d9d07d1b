"""The programs the suite runs besides Python, found on PATH or installed from Debian's packages.

`redis-server` backs the gateway, the workers and their tests; `openssl` makes the throwaway
certificates of the Redis TLS tests; `postgres` (Debian's `postgresql`, version 15, which installs it
off PATH in /usr/lib/postgresql/15/bin) keeps finished games for `make run` and the archive tests;
`chromium` (headless) runs the web client's browser test, which draws Chinese with Debian's
`fonts-noto-cjk` (without it Chromium shows boxes). When one is missing and this runs as root with
apt-get, Debian's package is installed (INSTALL_PACKAGES=0 never installs anything). The
launcher (`make run`), the tests' throwaway servers and `python -m deploy.programs` (run by `make
setup` and `make test`) all ask `installed` here, so a fresh machine gets what it needs from whichever
runs first.

Usage: python -m deploy.programs   (exit 0 when every program is there, 1 naming what is missing)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping

PACKAGES = {  # program -> Debian package
    "redis-server": "redis-server",
    "openssl": "openssl",
    "postgres": "postgresql",
    "chromium": "chromium",
}
OFF_PATH = {"postgres": "/usr/lib/postgresql/15/bin"}  # where a package puts a program not on PATH
FONTS = {  # Debian package -> a file it installs
    "fonts-noto-cjk": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
}


def found(program: str) -> str | None:
    """The path of `program` where its package puts it off PATH, else on PATH; None if neither."""
    return (shutil.which(program, path=OFF_PATH[program]) if program in OFF_PATH else None) or shutil.which(
        program
    )


def can_install(environ: Mapping[str, str]) -> bool:
    """Whether missing packages may be installed here: root, apt-get on PATH, INSTALL_PACKAGES not 0."""
    return (
        environ.get("INSTALL_PACKAGES", "1") != "0"
        and hasattr(os, "geteuid")
        and os.geteuid() == 0
        and shutil.which("apt-get") is not None
    )


def installed(program: str, environ: Mapping[str, str], notes: list[str]) -> str | None:
    """The path of `program`: the one on PATH, else the one Debian's package installs when allowed
    (with a note saying so); None when there is none."""
    path = found(program)
    if path or not can_install(environ):
        return path
    package = PACKAGES[program]
    notes.append(f"{program} is not installed; installing Debian's package {package}.")
    apt_install([package])
    return found(program)


def font_installed(package: str, environ: Mapping[str, str], notes: list[str]) -> bool:
    """Whether the fonts of Debian's `package` are there, installing them when allowed (with a note)."""
    if os.path.exists(FONTS[package]) or not can_install(environ):
        return os.path.exists(FONTS[package])
    notes.append(f"{package} is not installed; installing Debian's package {package}.")
    apt_install([package])
    return os.path.exists(FONTS[package])


def apt_install(packages: list[str]) -> None:
    """Install Debian's `packages` with apt-get (updating the package lists first if that fails)."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages]
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL, check=False).returncode != 0:
        # A fresh machine may have no package lists yet.
        subprocess.run(["apt-get", "update", "-qq"], env=env, stdout=subprocess.DEVNULL, check=False)
        subprocess.run(install, env=env, stdout=subprocess.DEVNULL, check=False)


def missing_hint(program: str) -> str:
    """What to tell someone who lacks `program` and cannot have it installed here."""
    return (
        f"{program} is not installed: install Debian's package {PACKAGES[program]} "
        f"(`apt-get install {PACKAGES[program]}`), or run `make setup` as root to have it installed."
    )


def main(environ: Mapping[str, str] = os.environ) -> int:
    """Find or install every program; the exit code (1 when one is still missing)."""
    notes: list[str] = []
    missing = [program for program in PACKAGES if installed(program, environ, notes) is None]
    fonts = [package for package in FONTS if not font_installed(package, environ, notes)]
    for note in notes:
        print(f"programs: {note}")
    for program in missing:
        print(f"programs: {missing_hint(program)}", file=sys.stderr)
    for package in fonts:
        print(
            f"programs: {package} is not installed: install Debian's package (`apt-get install {package}`), "
            "or run `make setup` as root to have it installed.",
            file=sys.stderr,
        )
    return 1 if missing or fonts else 0


if __name__ == "__main__":
    sys.exit(main())
