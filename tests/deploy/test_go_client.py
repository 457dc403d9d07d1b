"""What the Go client's build needs (deploy.go_client), on a machine that lacks all of it: a PATH
with none of its programs and an empty GOCODE. In CI the lack fails `make setup` and the Go client's
test; elsewhere it is a note and that test is skipped with the reason; as root the missing Debian
packages are installed (here by a stand-in apt-get that records its arguments)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from deploy import go_client

ROOT = Path(__file__).resolve().parents[2]
EVERY_PACKAGE = [*go_client.PROGRAMS.values(), *go_client.SOURCES.values()]
GO_TEST = "tests/clients/test_go.py"
FORMATTED = "test_go_client_sources_are_formatted_and_vetted"
APT_GET = '#!/bin/sh\necho "$*" >> {log}\n'


def bare(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """An empty bin folder for PATH and an environment whose GOCODE holds no Go source."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (tmp_path / "gocode" / "src").mkdir(parents=True)
    return bin_dir, {"PATH": str(bin_dir), "GOCODE": str(tmp_path / "gocode")}


def stand_in_apt_get(bin_dir: Path, log: Path) -> Path:
    """An apt-get in `bin_dir` that only writes its arguments to `log`; the log's path."""
    apt_get = bin_dir / "apt-get"
    apt_get.write_text(APT_GET.format(log=log))
    apt_get.chmod(apt_get.stat().st_mode | stat.S_IXUSR)
    return log


def setup_step(environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python -m deploy.go_client`, the step `make setup` runs."""
    return subprocess.run(
        [sys.executable, "-m", "deploy.go_client"],
        cwd=ROOT,
        env={**os.environ, **environ},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_every_package_is_missing_without_its_program_or_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir, environ = bare(tmp_path)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert go_client.missing(environ) == EVERY_PACKAGE
    assert "golang-github-golang-protobuf-1-5-dev" in EVERY_PACKAGE


def test_in_ci_a_missing_toolchain_fails_setup_naming_the_packages(tmp_path: Path) -> None:
    _, environ = bare(tmp_path)
    result = setup_step({**environ, "CI": "true", "INSTALL_PACKAGES": "0"})
    assert result.returncode == 1
    assert f"the Go client cannot be built: install Debian's {' '.join(EVERY_PACKAGE)}" in result.stderr


def test_elsewhere_a_missing_toolchain_is_a_note(tmp_path: Path) -> None:
    _, environ = bare(tmp_path)
    result = setup_step({**environ, "CI": "", "INSTALL_PACKAGES": "0"})
    assert result.returncode == 0
    assert "the Go client cannot be built" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="installing packages needs root")
def test_as_root_the_missing_packages_are_installed_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir, environ = bare(tmp_path)
    log = stand_in_apt_get(bin_dir, tmp_path / "apt-get.log")
    monkeypatch.setenv("PATH", str(bin_dir))
    notes: list[str] = []
    # The stand-in installs nothing: every package is still missing afterwards.
    assert go_client.ensure(environ, notes) == EVERY_PACKAGE
    assert log.read_text() == f"install -y -qq --no-install-recommends {' '.join(EVERY_PACKAGE)}\n"
    assert notes == [f"the Go client's build needs Debian's {', '.join(EVERY_PACKAGE)}; installing them."]


def go_client_test(environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One test of tests/clients/test_go.py (one needing only the built client) run by pytest here."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{GO_TEST}::{FORMATTED}"],
        cwd=ROOT,
        env={**os.environ, **environ},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_in_ci_the_go_client_test_fails_without_the_toolchain(tmp_path: Path) -> None:
    bin_dir, environ = bare(tmp_path)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent)])
    result = go_client_test({**environ, "PATH": path, "CI": "true", "INSTALL_PACKAGES": "0"})
    assert result.returncode == 1, result.stdout
    assert "Failed: the Go client cannot be built: install Debian's golang-go" in result.stdout


def test_elsewhere_the_go_client_test_is_skipped_with_the_reason(tmp_path: Path) -> None:
    bin_dir, environ = bare(tmp_path)
    path = os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent)])
    result = go_client_test({**environ, "PATH": path, "CI": "", "INSTALL_PACKAGES": "0"})
    assert result.returncode == 0, result.stdout
    assert "SKIPPED" in result.stdout and "the Go client cannot be built: install Debian's" in result.stdout


def test_installing_is_never_tried_when_told_not_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir, environ = bare(tmp_path)
    log = stand_in_apt_get(bin_dir, tmp_path / "apt-get.log")
    monkeypatch.setenv("PATH", str(bin_dir))
    notes: list[str] = []
    assert go_client.ensure({**environ, "INSTALL_PACKAGES": "0"}, notes) == EVERY_PACKAGE
    assert not log.exists() and notes == []
