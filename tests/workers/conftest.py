"""Fixtures: one Redis (a node, or a Cluster for the modules that run on both: `tests.redis_modes`),
a PostgreSQL for the finished games (as `make run` has), every rules service, a gateway and a real
Celery worker with beat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis

from deploy.throwaway import postgres_server, rules_servers
from gateway.browser import WebSettings
from live.connection import sync_client
from live.settings import Settings
from tests import redis_modes
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.workers.support import worker
from workers.settings import WorkerSettings

# The modes' hook and the session's `redis_mode` fixture, shared by every suite that runs on both.
pytest_generate_tests, redis_mode = redis_modes.pytest_generate_tests, redis_modes.redis_mode

SEARCH_SECONDS = 0.01  # small budgets keep the suite quick on a shared machine


@pytest.fixture(scope="session")
def redis_url(redis_mode: str) -> Iterator[str]:
    with redis_modes.throwaway(redis_mode) as url:
        yield url


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(scope="session")
def rules() -> Iterator[dict[str, str]]:
    with rules_servers() as addresses:
        yield addresses


@pytest.fixture(scope="session")
def settings(redis_url: str, rules: dict[str, str], database_url: str) -> Settings:
    return gateway_settings(redis_url, rules, database_url=database_url)


@pytest.fixture(scope="session")
def gateway(settings: Settings) -> Iterator[GatewayProcess]:
    with GatewayProcess(settings) as process:
        yield process


@pytest.fixture(scope="session")
def celery_worker(settings: Settings, gateway: GatewayProcess) -> Iterator[None]:
    with worker(settings, WorkerSettings(search_seconds=SEARCH_SECONDS)):
        yield


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    client = sync_client(redis_url)
    yield client
    client.close()


@pytest.fixture(scope="module")
def web_gateway(settings: Settings, celery_worker: None) -> Iterator[GatewayProcess]:
    """A gateway with its browser listener, per test module (the web client's tests)."""
    web = WebSettings(address="127.0.0.1:0")
    with GatewayProcess(settings, web=web) as process:
        yield process
