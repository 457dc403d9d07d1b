"""Every query of the Grafana dashboard asks for a metric that a real process exports under a job the
query selects: a gateway, a rules service and a worker run as `make run` starts them, with /metrics
on, scraped after a little traffic (a game against a bot, a stale move, a watch stream closed)."""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import yaml
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from deploy.throwaway import (
    free_port,
    gateway_serving,
    redis_server,
    serving_or_failed,
    start_gateway_process,
    start_rules_process,
    start_worker_process,
    stop_worker_process,
)
from services.common import registry
from tests.gateway.patience import patient_channel
from tests.titles import TITLE

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "boardgame.json"
PROMETHEUS = ROOT / "deploy" / "prometheus" / "prometheus.yml"
PROCESS_JOBS = ("gateway", "rules", "worker")  # the jobs scraping the backend's own processes
SELECTOR = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}")
JOB_MATCH = re.compile(r'job\s*(=~|=)\s*"([^"]*)"')
GAME_SECONDS = 120.0


def _play_against_a_bot(address: str) -> None:
    """A guest's game against a random bot, played to the end, with a stale move and a watch stream
    the client closes."""
    with patient_channel(address) as channel:  # a client waiting out rate limits, as clients do
        accounts = gateway_pb2_grpc.AccountServiceStub(channel)
        lobbies = gateway_pb2_grpc.LobbyServiceStub(channel)
        games = gateway_pb2_grpc.GameServiceStub(channel)
        token = accounts.CreateGuest(gateway_pb2.CreateGuestRequest(display_name="metrics")).session.token
        auth = (("authorization", f"Bearer {token}"),)
        lobby = lobbies.CreateLobby(
            gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2), metadata=auth
        ).lobby
        lobbies.AddBot(gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id), metadata=auth)
        game_id = lobbies.StartGame(
            gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), metadata=auth
        ).game_id
        watch = gateway_pb2.WatchGameRequest(game_id=game_id)
        closed = games.WatchGame(watch, metadata=auth)
        next(closed)
        closed.cancel()
        stale = True
        for update in games.WatchGame(watch, metadata=auth, timeout=GAME_SECONDS):
            view = update.game
            if view.status == gateway_pb2.GAME_STATUS_FINISHED:
                return
            if not update.HasField("game") or not view.legal_actions:
                continue
            move = gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=view.legal_actions[0].action,
                expected_version=view.version,
                request_id=uuid.uuid4().hex,
            )
            if stale:  # once: a move at a version that is not the game's, a write conflict
                with pytest.raises(grpc.RpcError) as refused:
                    games.SubmitAction(
                        gateway_pb2.SubmitActionRequest(
                            game_id=game_id,
                            action=move.action,
                            expected_version=view.version + 1,
                            request_id=uuid.uuid4().hex,
                        ),
                        metadata=auth,
                    )
                assert refused.value.code() == grpc.StatusCode.ABORTED
                stale = False
            games.SubmitAction(move, metadata=auth)
        raise AssertionError("the watch stream ended before the game")


def _exported(port: int) -> set[str]:
    """The sample names a process's /metrics serves."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    return {sample.name for family in text_string_to_metric_families(text) for sample in family.samples}


@pytest.fixture(scope="module")
def exported() -> Iterator[dict[str, set[str]]]:
    """Job name -> the sample names its process exports, after the traffic."""
    with redis_server() as redis_url:
        rules_address, gateway_address = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
        ports = {job: free_port() for job in PROCESS_JOBS}
        rules = start_rules_process(
            registry.GAME_MODULES[0], rules_address, {"METRICS_PORT": str(ports["rules"])}
        )
        gateway = start_gateway_process(
            redis_url,
            rules_address,
            int(gateway_address.rsplit(":", 1)[1]),
            {"METRICS_PORT": str(ports["gateway"])},
        )
        worker = start_worker_process(
            redis_url, rules_address, {"METRICS_PORT": str(ports["worker"]), "WORKER_BEAT": "0"}
        )
        try:
            serving_or_failed(rules, rules_address, "the rules service")
            gateway_serving(gateway, gateway_address)
            _play_against_a_bot(gateway_address)
            yield {job: _exported(port) for job, port in ports.items()}
        finally:
            for process in (worker, gateway, rules):
                stop_worker_process(process)


def _dashboard() -> dict:  # type: ignore[type-arg]
    return json.loads(DASHBOARD.read_text())


def _job_variable() -> set[str]:
    (variable,) = (v for v in _dashboard()["templating"]["list"] if v["name"] == "job")
    return {value.strip() for value in variable["query"].split(",")}


def _selected_jobs(selector: str, jobs: set[str]) -> set[str]:
    """The jobs a query's label selector matches, among `jobs`."""
    match = JOB_MATCH.search(selector)
    if match is None:
        return jobs
    operator, value = match.groups()
    value = value.replace("$job", "|".join(sorted(_job_variable())))
    return {job for job in jobs if re.fullmatch(value, job)} if operator == "=~" else {value} & jobs


def _queries() -> list[tuple[str, str]]:
    return [
        (panel["title"], target["expr"])
        for panel in _dashboard()["panels"]
        for target in panel.get("targets", ())
    ]


def test_the_process_jobs_are_the_ones_prometheus_scrapes() -> None:
    scraped = {job["job_name"] for job in yaml.safe_load(PROMETHEUS.read_text())["scrape_configs"]}
    assert set(PROCESS_JOBS) <= scraped
    assert _job_variable() <= scraped


def test_every_dashboard_query_asks_for_a_metric_a_selected_process_exports(
    exported: dict[str, set[str]],
) -> None:
    jobs = set(exported)
    for title, expr in _queries():
        selectors = SELECTOR.findall(expr)
        assert selectors, f"{title}: {expr} names no metric with a selector"
        for metric, selector in selectors:
            selected = _selected_jobs(selector, jobs)
            assert any(metric in exported[job] for job in selected), (
                f"{title}: no process of {sorted(selected)} exports {metric}"
            )


def test_the_job_variable_covers_every_process_exporting_what_a_panel_shows(
    exported: dict[str, set[str]],
) -> None:
    """A panel filtered on $job shows a metric from every process that exports it (the worker applies
    most moves, and exports them under the gateway's metric names)."""
    for title, expr in _queries():
        for metric, selector in SELECTOR.findall(expr):
            if "$job" not in selector:
                continue
            exporters = {job for job in exported if metric in exported[job]}
            assert exporters <= _job_variable(), f"{title}: {metric} also comes from {exporters}"


def test_streams_have_panels_of_their_own_and_cancelled_calls_are_no_errors() -> None:
    queries = dict(_queries())
    assert any("grpc_server_stream_seconds" in expr for expr in queries.values())
    assert any("gateway_calls_unserved" in expr for expr in queries.values())
    errors = [expr for expr in queries.values() if "grpc_code!" in expr]
    assert errors and all("CANCELLED" in expr for expr in errors)
