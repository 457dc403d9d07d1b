"""deploy/Dockerfile and what it installs: a pinned base, several stages, a non-root user, the runtime
part of the lock complete and free of dev tools, and the health probe the compose file runs."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from collections.abc import Iterator

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from deploy import probe, runtime_requirements
from services.common import registry
from services.common.server import create_server
from services.common.servicer import SERVICE_NAME
from tests.deploy import facts

DOCKERFILE = (facts.DEPLOY / "Dockerfile").read_text()
IGNORE = [
    line.strip()
    for line in (facts.DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]


def test_base_image_is_pinned_python_of_the_project() -> None:
    base = re.search(r"^ARG PYTHON_IMAGE=(\S+)$", DOCKERFILE, re.M)
    assert base, "the base image is one ARG, used by every stage"
    image = base.group(1)
    requires = tomllib.loads((facts.ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    minor = re.search(r">=(3\.\d+)", requires)
    assert minor
    assert re.fullmatch(
        rf"python:{re.escape(minor.group(1))}\.\d+-slim-bookworm(@sha256:[0-9a-f]{{64}})?", image
    )
    stages = re.findall(r"^FROM (\S+)(?: AS (\w+))?$", DOCKERFILE, re.M)
    # The web client is built on a pinned Node.js image (tests/clients/test_node_packages.py), the
    # rest on the Python one.
    assert {image for image, name in stages if name != "web"} == {"${PYTHON_IMAGE}"}
    assert ("${NODE_IMAGE}", "web") in stages and len(stages) >= 3


def test_the_web_stage_builds_the_web_client_as_the_makefile_does() -> None:
    """The Makefile builds the web client after `npm run generate`, with nothing else generated (the
    boards' data comes from the API): the image's web stage does the same, or tsc fails there."""
    makefile = (facts.ROOT / "Makefile").read_text()
    assert "npm run --silent generate && npm run --silent build" in makefile
    web = DOCKERFILE.split(" AS web\n", 1)[1].split("\nFROM ", 1)[0]
    assert "RUN npm run generate && npm run build" in web
    assert "web_boards" not in DOCKERFILE + makefile


def test_final_stage_runs_as_a_numeric_non_root_user() -> None:
    final = DOCKERFILE.rsplit("\nFROM ", 1)[1]
    user = re.findall(r"^USER (\d+):(\d+)$", final, re.M)
    assert user and int(user[-1][0]) > 0 and int(user[-1][1]) > 0
    assert f"--uid {user[-1][0]}" in final
    assert "pip install" not in final and "grpc_tools" not in final, "build tools stay in the build stage"


def test_build_context_holds_every_package_a_command_runs() -> None:
    allowed = {line.lstrip("!").rstrip("/") for line in IGNORE if line.startswith("!")}
    for package in ("services", "live", "gateway", "workers", "protos"):
        assert package in allowed
    for path in ("deploy/probe.py", "deploy/runtime_requirements.py", "requirements.lock", "pyproject.toml"):
        assert path in allowed
    assert IGNORE[0] == "*", "the ignore file is an allow-list: everything out, then what is needed"


@pytest.fixture(scope="module")
def runtime() -> set[str]:
    text = runtime_requirements.render(
        (facts.ROOT / "requirements.lock").read_text(), (facts.ROOT / "pyproject.toml").read_text()
    )
    lines = text.splitlines()
    pins = [index for index, line in enumerate(lines) if "==" in line]
    assert pins
    # Every pin keeps its hashes, so the image installs with --require-hashes.
    assert all(lines[index + 1].strip().startswith("--hash=sha256:") for index in pins)
    return {canonicalize_name(lines[index].split("==")[0]) for index in pins}


def test_runtime_requirements_hold_the_dependencies_and_no_dev_tool(runtime: set[str]) -> None:
    project = tomllib.loads((facts.ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        assert canonicalize_name(Requirement(requirement).name) in runtime
    for requirement in project["optional-dependencies"]["dev"]:
        name = canonicalize_name(Requirement(requirement).name)
        needed_at_runtime = name in {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}
        assert needed_at_runtime or name not in runtime, f"dev tool {name} would be in the image"


def test_runtime_requirements_are_closed_under_what_they_require(runtime: set[str]) -> None:
    # The installed distributions say what each needs (extras of the project's own requirements
    # included), so a pin the `# via` notes missed shows up here.
    project = tomllib.loads((facts.ROOT / "pyproject.toml").read_text())["project"]
    extras = {canonicalize_name(Requirement(r).name): Requirement(r).extras for r in project["dependencies"]}
    for name in sorted(runtime):
        wanted: set[str] = extras.get(canonicalize_name(name)) or set()
        for line in importlib.metadata.requires(name) or []:
            requirement = Requirement(line)
            environments = [{"extra": extra} for extra in wanted] or [{"extra": ""}]
            if requirement.marker and not any(requirement.marker.evaluate(env) for env in environments):
                continue
            assert canonicalize_name(requirement.name) in runtime, f"{name} needs {requirement.name}"


@pytest.fixture
def rules_address() -> Iterator[str]:
    server, port = create_server("127.0.0.1:0", next(iter(registry.games().values())))
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0)


def test_probe_reports_a_serving_rules_service_and_a_dead_port(rules_address: str) -> None:
    assert probe.main(["probe", rules_address, SERVICE_NAME]) == 0
    assert probe.main(["probe", rules_address, "no.such.Service"]) == 1
    assert probe.main(["probe", rules_address]) == 0
    assert probe.main(["probe"]) == 2


def test_probe_fails_when_nothing_listens() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert not probe.serving(f"127.0.0.1:{port}", timeout=0.5)
