"""What the code says, for checking the deployment files against it: the environment variables the
processes read, the modules a command can run, the metrics the processes define, the registered games."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

from live.settings import variables as settings_variables

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
IMAGE = "boardgame-backend"
# The packages whose processes the image runs, and so whose code reads the environment.
PROCESS_PACKAGES = ("services", "live", "gateway", "workers", "deploy")


ENV_READ = re.compile(r"""(?:environ(?:\.get)?\s*[(\[]|getenv\s*\()\s*["']([A-Z][A-Z0-9_]*)["']""")
METRIC_DEFINED = re.compile(
    r"""\b(?:Counter|Gauge|Histogram|Summary)(?:MetricFamily)?\(\s*["']([a-zA-Z_:][a-zA-Z0-9_:]*)["']"""
)


def python_sources() -> list[Path]:
    """Every Python file of the process packages."""
    return [
        path
        for package in PROCESS_PACKAGES
        if (ROOT / package).is_dir()
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


@cache
def env_vars_read() -> frozenset[str]:
    """Names of the environment variables some process reads: os.environ / getenv with a literal, and
    the plain settings' (each read by its field's name, `live.settings.variables`)."""
    names: set[str] = {name for name, _ in settings_variables()}
    for path in python_sources():
        names.update(ENV_READ.findall(path.read_text()))
    return frozenset(names)


@cache
def metrics_defined() -> frozenset[str]:
    """Names of the Prometheus metrics the processes define."""
    names: set[str] = set()
    for path in python_sources():
        names.update(METRIC_DEFINED.findall(path.read_text()))
    return frozenset(names)


def module_exists(name: str) -> bool:
    """Whether `python -m name` finds a module (the repository root and gen/ are on the path)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def command_modules(command: list[str]) -> list[str]:
    """The Python modules a container command runs: `python -m X`, and Celery's `-A APP`."""
    modules = []
    if len(command) >= 3 and command[0] == "python" and command[1] == "-m":
        modules.append(command[2])
    for flag in ("-A", "--app"):
        if flag in command:
            modules.append(command[command.index(flag) + 1])
    return modules


def registered_game_modules() -> tuple[str, ...]:
    """The modules of every registered game (`python -m` runs each as a rules service)."""
    from services.common.registry import GAME_MODULES

    return GAME_MODULES


def port_of(address: str) -> int:
    """The port of a "host:port" or "[v6]:port" address."""
    return int(address.rsplit(":", 1)[1])


def host_of(address: str) -> str:
    """The host of a "host:port" address, without a "dns:///" scheme."""
    return address.removeprefix("dns:///").rsplit(":", 1)[0]
