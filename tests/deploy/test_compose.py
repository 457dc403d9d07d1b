"""deploy/docker-compose.yml, Prometheus and Grafana files: they parse, match the Compose schema, and
every image, command, environment variable, port and metric they name exists in the code."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import jsonschema
import pytest
import yaml

from tests.deploy import facts

COMPOSE = facts.DEPLOY / "docker-compose.yml"
PROMETHEUS = facts.DEPLOY / "prometheus" / "prometheus.yml"
GRAFANA = facts.DEPLOY / "grafana"
# Metrics that come from third-party exporters rather than our code.
EXPORTER_PREFIXES = ("redis_",)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())


def ours(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run the project's image."""
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("image", "").split(":")[0] == facts.IMAGE
    }


def test_compose_file_matches_the_compose_schema(compose: dict[str, Any]) -> None:
    schema_file = resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    schema = json.loads(schema_file.read_text())
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(compose)]
    assert errors == []


def test_every_python_process_is_built_from_the_one_dockerfile(compose: dict[str, Any]) -> None:
    services = ours(compose)
    assert {"gateway", "worker"} <= services.keys()
    for name, service in services.items():
        build = service["build"]
        assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == (
            facts.DEPLOY / "Dockerfile"
        ), name
        assert service["read_only"] is True, name


def test_third_party_images_are_pinned_to_a_version(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        if name in ours(compose):
            continue
        image = service["image"]
        assert re.search(r":v?\d+\.\d+\.\d+", image) or "@sha256:" in image, (name, image)


def test_commands_run_modules_that_exist(compose: dict[str, Any]) -> None:
    for name, service in ours(compose).items():
        modules = facts.command_modules(service["command"])
        assert modules, f"{name}: command is not `python -m MODULE`"
        for module in modules:
            assert facts.module_exists(module), f"{name}: no module {module}"
        test = service.get("healthcheck", {}).get("test", [])
        if test:
            assert facts.module_exists(test[3]), f"{name}: health check module {test[3]} is missing"


def test_environment_variables_are_read_by_the_code(compose: dict[str, Any]) -> None:
    read = facts.env_vars_read()
    for name, service in ours(compose).items():
        unknown = set(service.get("environment", {})) - read
        assert not unknown, f"{name} sets variables no code reads: {sorted(unknown)}"


def test_every_registered_game_runs_as_a_rules_service(compose: dict[str, Any]) -> None:
    services = ours(compose)
    commands = {tuple(service["command"]): name for name, service in services.items()}
    gateway_env = services["gateway"]["environment"]
    rules_addresses = gateway_env["RULES_ADDRESSES"].split(",")
    assert len(rules_addresses) == len(facts.registered_game_modules())
    for module in facts.registered_game_modules():
        name = commands.get(("python", "-m", module))
        assert name, f"no compose service runs {module}"
        service = services[name]
        port = facts.port_of(service["environment"]["RULES_ADDRESS"])
        # The health check probes the port the service serves, and the gateway dials that port.
        assert facts.port_of(service["healthcheck"]["test"][4]) == port
        assert f"{name}:{port}" in rules_addresses
        assert "redis" not in service.get("depends_on", {}), "rules services are pure: no Redis"


def test_gateway_serves_publishes_and_probes_its_ports(compose: dict[str, Any]) -> None:
    gateway = compose["services"]["gateway"]
    port = facts.port_of(gateway["environment"]["GATEWAY_ADDRESS"])
    web_port = facts.port_of(gateway["environment"]["WEB_ADDRESS"])
    published = [int(mapping.rsplit(":", 1)[1]) for mapping in gateway["ports"]]
    assert published == [port, web_port]
    assert facts.port_of(gateway["healthcheck"]["test"][4]) == port
    for name in ("gateway", "worker"):
        env = compose["services"][name]["environment"]
        assert facts.host_of(env["REDIS_URL"].removeprefix("redis://").split("/")[0]) == "redis"


def test_redis_keeps_an_append_only_file(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    command = redis["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    data_dir = command[command.index("--dir") + 1]
    assert any(volume.endswith(f":{data_dir}") for volume in redis["volumes"])


def prometheus_targets() -> dict[str, list[str]]:
    config = yaml.safe_load(PROMETHEUS.read_text())
    return {
        job["job_name"]: [target for static in job["static_configs"] for target in static["targets"]]
        for job in config["scrape_configs"]
    }


def test_prometheus_scrapes_every_process_on_its_metrics_port(compose: dict[str, Any]) -> None:
    targets = [target for job in prometheus_targets().values() for target in job]
    scraped = {facts.host_of(target): facts.port_of(target) for target in targets}
    for target in targets:
        host = facts.host_of(target)
        assert host == "localhost" or host in compose["services"], f"unknown scrape target {target}"
    for name, service in ours(compose).items():
        assert name in scraped, f"Prometheus does not scrape {name}"
        assert scraped[name] == int(service["environment"]["METRICS_PORT"]), name
    rules_jobs = prometheus_targets()["rules"]
    assert len(rules_jobs) == len(facts.registered_game_modules())


def dashboard_metrics() -> set[str]:
    dashboard = json.loads((GRAFANA / "dashboards" / "boardgame.json").read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    assert exprs
    names = set()
    for expr in exprs:
        names.update(re.findall(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{\[]", expr))
    return {re.sub(r"_(bucket|sum|count)$", "", name) for name in names} - {"by", "without"}


def test_dashboard_queries_metrics_the_processes_define() -> None:
    defined = facts.metrics_defined()
    assert {"grpc_server_handled_total", "grpc_server_handling_seconds", "gateway_live_games"} <= defined
    for name in dashboard_metrics():
        if name.startswith(EXPORTER_PREFIXES):
            continue
        assert name in defined, f"the dashboard queries {name}, which no process defines"


def test_dashboard_covers_rates_latencies_games_bots_and_queue() -> None:
    names = dashboard_metrics()
    assert {
        "grpc_server_handled_total",
        "grpc_server_handling_seconds",
        "gateway_live_games",
        "worker_bot_think_seconds",
        "worker_queue_depth",
    } <= names


def test_grafana_provisioning_points_at_compose_prometheus_and_the_dashboard_folder(
    compose: dict[str, Any],
) -> None:
    datasources = yaml.safe_load((GRAFANA / "provisioning" / "datasources" / "prometheus.yml").read_text())
    url = datasources["datasources"][0]["url"]
    assert url == "http://prometheus:9090" and "prometheus" in compose["services"]
    providers = yaml.safe_load((GRAFANA / "provisioning" / "dashboards" / "boardgame.yml").read_text())
    path = providers["providers"][0]["options"]["path"]
    mounts = compose["services"]["grafana"]["volumes"]
    assert f"./grafana/dashboards:{path}:ro" in mounts
    home = compose["services"]["grafana"]["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home == f"{path}/boardgame.json"
