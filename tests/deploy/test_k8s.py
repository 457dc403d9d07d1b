"""deploy/k8s: the kustomize base and overlay render, validate against the Kubernetes schemas, and
every image, command, variable, probe, port and selector they name matches the code and each other."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from live import balancing
from tests.deploy import facts
from tests.deploy.kustomize import Obj, containers, key, render

K8S = facts.DEPLOY / "k8s"
BASE = K8S / "base"
OVERLAYS = sorted(path for path in (K8S / "overlays").iterdir() if path.is_dir())
FOLDERS = [BASE, *OVERLAYS]
# The URL schemes that put game state on a Redis Cluster (live/settings.py).
CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
KUBERNETES_VERSION = "1.30.0"  # the oldest release the manifests must apply to


def ids(path: Path) -> str:
    return str(path.relative_to(K8S))


@pytest.fixture(scope="module", params=FOLDERS, ids=ids)
def rendered(request: pytest.FixtureRequest) -> list[Obj]:
    return render(request.param)


def by_kind(objects: list[Obj], kind: str) -> dict[str, Obj]:
    return {obj["metadata"]["name"]: obj for obj in objects if obj["kind"] == kind}


def pod_spec(workload: Obj) -> Obj:
    spec: Obj = workload["spec"]["template"]["spec"]
    return spec


def environment(objects: list[Obj], container: Obj) -> dict[str, str]:
    """A container's environment: its ConfigMaps first, then its own `env` entries."""
    config_maps = by_kind(objects, "ConfigMap")
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        env.update(config_maps[source["configMapRef"]["name"]]["data"])
    env.update({item["name"]: item["value"] for item in container.get("env", [])})
    return env


def our_containers(objects: list[Obj]) -> list[tuple[Obj, Obj]]:
    """(workload, container) for every container running the project's image."""
    return [
        (workload, container)
        for workload in objects
        for container in containers(workload)
        if container["image"].rsplit("/", 1)[-1].split(":")[0] == facts.IMAGE
    ]


@pytest.mark.parametrize("folder", FOLDERS, ids=ids)
def test_renderer_agrees_with_kubectl_kustomize(folder: Path) -> None:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not installed; the tests use the Python renderer alone")
    output = subprocess.run(
        [kubectl, "kustomize", str(folder)], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    theirs = {key(obj): obj for obj in yaml.safe_load_all(output) if obj}
    mine = {key(obj): obj for obj in render(folder)}
    assert mine == theirs


def test_every_object_matches_the_kubernetes_schema(rendered: list[Obj]) -> None:
    for obj in rendered:
        try:
            kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as error:
            pytest.fail(f"{key(obj)}: {error.message} at {list(error.path)}")


def test_pods_run_as_non_root_with_read_only_root_and_limits(rendered: list[Obj]) -> None:
    workloads = [obj for obj in rendered if obj["kind"] in ("Deployment", "StatefulSet")]
    assert workloads
    for workload in workloads:
        pod = pod_spec(workload)
        assert pod["securityContext"]["runAsNonRoot"] is True, key(workload)
        assert pod["securityContext"]["runAsUser"] > 0, key(workload)
        for container in containers(workload):
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True, key(workload)
            assert security["allowPrivilegeEscalation"] is False, key(workload)
            assert security["capabilities"]["drop"] == ["ALL"], key(workload)
            for kind in ("requests", "limits"):
                assert {"cpu", "memory"} <= container["resources"][kind].keys(), key(workload)


def test_image_user_is_the_pod_user(rendered: list[Obj]) -> None:
    dockerfile = (facts.DEPLOY / "Dockerfile").read_text()
    user = dockerfile.rsplit("\nUSER ", 1)[1].split()[0].split(":")[0]
    for workload, _ in our_containers(rendered):
        assert str(pod_spec(workload)["securityContext"]["runAsUser"]) == user, key(workload)


def test_commands_run_modules_that_exist_with_variables_the_code_reads(rendered: list[Obj]) -> None:
    read = facts.env_vars_read()
    found = our_containers(rendered)
    assert found
    for workload, container in found:
        modules = facts.command_modules(container["command"])
        assert modules, key(workload)
        for module in modules:
            assert facts.module_exists(module), f"{key(workload)}: no {module}"
        unknown = set(environment(rendered, container)) - read
        assert not unknown, f"{key(workload)} sets variables no code reads: {sorted(unknown)}"


def grpc_port(env: dict[str, str]) -> int | None:
    """The port a process serves gRPC on, from its address variable; None for non-gRPC processes."""
    for name in ("RULES_ADDRESS", "GATEWAY_ADDRESS"):
        if name in env:
            return facts.port_of(env[name])
    return None


def test_probes_and_ports_are_the_ports_the_processes_serve(rendered: list[Obj]) -> None:
    for workload, container in our_containers(rendered):
        env = environment(rendered, container)
        ports = {port["name"]: port["containerPort"] for port in container["ports"]}
        served = grpc_port(env)
        if served is not None:
            assert ports["grpc"] == served, key(workload)
            for probe in ("readinessProbe", "livenessProbe"):
                assert container[probe]["grpc"]["port"] == served, (key(workload), probe)
        else:
            assert "readinessProbe" not in container, key(workload)
        metrics = int(env["METRICS_PORT"])
        assert ports["metrics"] == metrics, key(workload)
        annotations = workload["spec"]["template"]["metadata"]["annotations"]
        assert annotations["prometheus.io/scrape"] == "true", key(workload)
        assert int(annotations["prometheus.io/port"]) == metrics, key(workload)


def test_readiness_probes_name_services_the_process_registers(rendered: list[Obj]) -> None:
    from gateway import api
    from services.common.servicer import SERVICE_NAME

    gateway_services = {service.full_name for service in api.services()}
    for workload, container in our_containers(rendered):
        if "readinessProbe" not in container:
            continue
        service = container["readinessProbe"]["grpc"].get("service", "")
        module = facts.command_modules(container["command"])[0]
        expected = gateway_services if module.split(".")[0] == "gateway" else {SERVICE_NAME}
        assert service in expected, key(workload)


def pod_labels(objects: list[Obj]) -> list[tuple[Obj, dict[str, str]]]:
    return [
        (obj, obj["spec"]["template"]["metadata"]["labels"])
        for obj in objects
        if obj["kind"] in ("Deployment", "StatefulSet")
    ]


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(name) == value for name, value in selector.items())


def test_services_select_pods_and_target_their_named_ports(rendered: list[Obj]) -> None:
    for service in by_kind(rendered, "Service").values():
        matched = [
            obj for obj, labels in pod_labels(rendered) if selects(service["spec"]["selector"], labels)
        ]
        assert len(matched) == 1, key(service)
        container_ports = {
            port["name"]: port["containerPort"]
            for container in containers(matched[0])
            for port in container["ports"]
        }
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in container_ports, key(service)


def test_gateway_rules_and_workers_autoscale_and_have_disruption_budgets(rendered: list[Obj]) -> None:
    deployments = by_kind(rendered, "Deployment")
    autoscalers = by_kind(rendered, "HorizontalPodAutoscaler")
    budgets = by_kind(rendered, "PodDisruptionBudget")
    assert {"gateway", "worker"} <= deployments.keys()
    for name, deployment in deployments.items():
        hpa = autoscalers[name]["spec"]
        assert hpa["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}
        assert 1 <= hpa["minReplicas"] <= hpa["maxReplicas"]
        assert "replicas" not in deployment["spec"], f"{name}: the autoscaler owns the replica count"
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert selects(budgets[name]["spec"]["selector"]["matchLabels"], labels)


def test_every_registered_game_has_a_rules_deployment_the_gateway_dials(rendered: list[Obj]) -> None:
    deployments = by_kind(rendered, "Deployment")
    services = by_kind(rendered, "Service")
    gateway = containers(deployments["gateway"])[0]
    addresses = environment(rendered, gateway)["RULES_ADDRESSES"].split(",")
    assert len(addresses) == len(facts.registered_game_modules())
    dialled = {facts.host_of(address): facts.port_of(address) for address in addresses}
    for module in facts.registered_game_modules():
        runs = [
            name
            for name, deployment in deployments.items()
            if containers(deployment)[0]["command"] == ["python", "-m", module]
        ]
        assert len(runs) == 1, f"no single Deployment runs {module}"
        service = next(
            service
            for service in services.values()
            if selects(
                service["spec"]["selector"], deployments[runs[0]]["spec"]["template"]["metadata"]["labels"]
            )
        )
        name = service["metadata"]["name"]
        assert dialled.get(name) == service["spec"]["ports"][0]["port"], f"the gateway does not dial {name}"


def test_rules_services_are_headless_and_dialled_through_dns_by_the_gateway_and_workers(
    rendered: list[Obj],
) -> None:
    """Each title's name resolves to every ready pod (no cluster IP balancing connections), and the
    gateway and the workers dial it as dns:///NAME:PORT, so round_robin spreads calls over them all."""
    rules = {
        name: service
        for name, service in by_kind(rendered, "Service").items()
        if service["metadata"]["labels"].get("app.kubernetes.io/component") == "rules"
    }
    assert len(rules) == len(facts.registered_game_modules())
    for name, service in rules.items():
        assert service["spec"].get("clusterIP") == "None", f"{name} is not headless"
    deployments = by_kind(rendered, "Deployment")
    for process in ("gateway", "worker"):
        addresses = environment(rendered, containers(deployments[process])[0])["RULES_ADDRESSES"].split(",")
        for address in addresses:
            assert address.startswith("dns:///"), f"{process} dials {address} without the dns resolver"
            assert facts.host_of(address) in rules, f"{process} dials {address}: no rules Service"
            assert balancing.target(facts.host_of(address), [address]) == address


def redis_host(objects: list[Obj]) -> str:
    url = by_kind(objects, "ConfigMap")["boardgame-config"]["data"]["REDIS_URL"]
    return url.split("://", 1)[1].split("/")[0].rsplit(":", 1)[0]


def test_base_runs_redis_with_an_append_only_file() -> None:
    objects = render(BASE)
    redis = by_kind(objects, "StatefulSet")["redis"]
    args: list[Any] = containers(redis)[0]["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    data_dir = args[args.index("--dir") + 1]
    assert containers(redis)[0]["volumeMounts"] == [{"name": "data", "mountPath": data_dir}]
    assert redis["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
    assert redis_host(objects) in by_kind(objects, "Service")


@pytest.mark.parametrize("overlay", OVERLAYS, ids=ids)
def test_overlay_uses_an_external_redis_a_namespace_and_a_released_image(overlay: Path) -> None:
    objects = render(overlay)
    assert "StatefulSet" not in {obj["kind"] for obj in objects}
    assert redis_host(objects) not in by_kind(objects, "Service")
    namespaced = [obj for obj in objects if obj["kind"] != "Namespace"]
    namespaces = {obj["metadata"].get("namespace") for obj in namespaced}
    assert len(namespaces) == 1 and None not in namespaces
    for _, container in our_containers(objects):
        assert ":" in container["image"] and not container["image"].endswith(":latest")


def url_host(url: str) -> str:
    """The host of a redis://, rediss+cluster:// or postgresql:// URL."""
    return url.split("://", 1)[1].split("/")[0].rsplit("@", 1)[-1].rsplit(":", 1)[0]


@pytest.mark.parametrize("overlay", OVERLAYS, ids=ids)
def test_overlay_keeps_games_on_a_redis_cluster_the_queue_on_plain_redis_and_history_in_external_postgres(
    overlay: Path,
) -> None:
    objects = render(overlay)
    config = by_kind(objects, "ConfigMap")["boardgame-config"]["data"]
    services = by_kind(objects, "Service")
    assert config["REDIS_URL"].startswith(CLUSTER_SCHEMES), "game state is not on a Redis Cluster"
    broker = config["CELERY_BROKER_URL"]
    assert broker.startswith(("redis://", "rediss://")), "Celery's broker cannot be a Cluster"
    assert url_host(broker) != url_host(config["REDIS_URL"])
    database = config["DATABASE_URL"]
    assert database.startswith("postgresql://")
    assert url_host(database) not in services, "the overlay's PostgreSQL is the base's pod"
    assert "StatefulSet" not in {obj["kind"] for obj in objects}
