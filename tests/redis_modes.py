"""The two Redis deployments the gateway and worker suites run against: one node, and a Redis Cluster of
three primaries and three replicas (with a plain Redis as the Celery broker, as a Cluster deployment
has). Every test using the session's Redis runs against both; one that needs one node only (a Redis
database of its own, a TLS server, a node it stops) says `@ONE_NODE` (or its module `pytestmark =
ONE_NODE`). Each conftest imports `pytest_generate_tests` and the `redis_mode` fixture from here and starts
the servers with `throwaway`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from deploy.throwaway import redis_cluster, redis_server

SINGLE, CLUSTER = "single", "cluster"
MARK = "redis_modes"
BOTH = pytest.mark.redis_modes(SINGLE, CLUSTER)
ONE_NODE = pytest.mark.redis_modes(SINGLE)
ON_A_CLUSTER = pytest.mark.redis_modes(CLUSTER)
# A test repeated for every title plays each title's whole game on one mode only, paired with another
# that plays every title on the other (`ONE_NODE` with `ON_A_CLUSTER`): what a title changes is the rules
# service and the state's bytes, never the Redis write path, which the suites' other tests run on both.
EVERY_TITLE_ON_ONE_NODE, EVERY_TITLE_ON_A_CLUSTER = ONE_NODE, ON_A_CLUSTER

_brokers: dict[str, str] = {}  # a throwaway Cluster's URL -> the plain Redis that is its broker


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A conftest's hook (imported there): `parametrize`."""
    parametrize(metafunc)


@pytest.fixture(scope="session")
def redis_mode(request: pytest.FixtureRequest) -> str:
    """The mode of the session's Redis (a conftest imports this fixture with the hook)."""
    return str(request.param)


def parametrize(metafunc: pytest.Metafunc) -> None:
    """Run a test using `redis_mode` once per mode its closest `redis_modes` mark names (both,
    unmarked)."""
    if "redis_mode" not in metafunc.fixturenames:
        return
    mark = metafunc.definition.get_closest_marker(MARK)
    modes = list(mark.args) if mark is not None else [SINGLE, CLUSTER]
    metafunc.parametrize("redis_mode", modes, indirect=True, scope="session")


@contextlib.contextmanager
def throwaway(mode: str) -> Iterator[str]:
    """The Redis of `mode`; yields its URL (redis+cluster:// for the Cluster)."""
    if mode == SINGLE:
        with redis_server() as url:
            yield url
        return
    with redis_cluster() as cluster, redis_server() as broker:
        _brokers[cluster.url] = broker
        try:
            yield cluster.url
        finally:
            _brokers.pop(cluster.url, None)


def broker_of(redis_url: str) -> str:
    """The Celery broker of a throwaway Redis: the Cluster's plain Redis, or '' (the same Redis)."""
    return _brokers.get(redis_url, "")
