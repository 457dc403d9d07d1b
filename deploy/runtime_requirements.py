"""The runtime part of requirements.lock: what the container image installs, without the dev tools.

requirements.lock holds the runtime dependencies and the dev extras together, each pin followed by
uv's `# via` note naming what pulled it in. A pin belongs to the runtime when pyproject.toml lists it
in [project].dependencies, or when something that belongs to the runtime pulls it in. The pins are
copied with their hashes, so `pip install --require-hashes` still checks every file.

Usage: python deploy/runtime_requirements.py [requirements.lock [pyproject.toml]] > runtime.txt
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==")
REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    """A distribution name in its normalized form (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass
class Pin:
    """One locked distribution: its lines in the lock and the names of what pulled it in."""

    name: str
    lines: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)


def parse_lock(text: str) -> dict[str, Pin]:
    """Every pin of a uv-compiled lock, by canonical name, in file order."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    for line in text.splitlines():
        match = PIN.match(line)
        if match:
            current = Pin(canonical(match.group(1)), [line])
            pins[current.name] = current
            continue
        if current is None:
            continue
        stripped = line.strip()
        if stripped.startswith("--hash=") or (stripped.startswith("--") and current.lines[-1].endswith("\\")):
            current.lines.append(line)
        elif stripped.startswith("# via "):
            current.via.append(stripped.removeprefix("# via ").strip())
        elif stripped.startswith("#   "):
            current.via.append(stripped.removeprefix("#   ").strip())
    return pins


def runtime_names(pyproject: dict[str, object]) -> set[str]:
    """The canonical names of the project's runtime dependencies."""
    project = pyproject.get("project", {})
    assert isinstance(project, dict)
    names = set()
    for requirement in project.get("dependencies", []):
        match = REQUIREMENT_NAME.match(requirement)
        if match:
            names.add(canonical(match.group(1)))
    return names


def runtime_pins(pins: dict[str, Pin], roots: set[str]) -> list[Pin]:
    """The pins the runtime needs: the roots and everything they pull in, in lock order."""
    missing = roots - pins.keys()
    if missing:
        raise ValueError(f"runtime dependencies missing from the lock: {', '.join(sorted(missing))}")
    needed = set(roots)
    changed = True
    while changed:
        changed = False
        for pin in pins.values():
            if pin.name in needed:
                continue
            parents = {canonical(via.split(" ", 1)[0]) for via in pin.via}
            if parents & needed:
                needed.add(pin.name)
                changed = True
    return [pin for pin in pins.values() if pin.name in needed]


def render(lock_text: str, pyproject_text: str) -> str:
    """The runtime requirements file for a lock and a pyproject.toml."""
    pins = runtime_pins(parse_lock(lock_text), runtime_names(tomllib.loads(pyproject_text)))
    lines = ["# The runtime part of requirements.lock, made by deploy/runtime_requirements.py."]
    for pin in pins:
        lines.extend(pin.lines)
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Print the runtime requirements of the given (or the repository's) lock and pyproject.toml."""
    lock = Path(argv[1]) if len(argv) > 1 else ROOT / "requirements.lock"
    pyproject = Path(argv[2]) if len(argv) > 2 else ROOT / "pyproject.toml"
    sys.stdout.write(render(lock.read_text(), pyproject.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
