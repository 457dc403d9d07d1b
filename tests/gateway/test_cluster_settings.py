"""Choosing a Redis Cluster by configuration: REDIS_CLUSTER=1 or a redis+cluster:// URL gives redis-py's
cluster client, Celery needs a broker of its own then, and the replica-acknowledgement policy is read
and checked."""

from __future__ import annotations

import pytest
from redis.asyncio.cluster import RedisCluster

from live.connection import async_client, clustered, node_url
from live.settings import ReplicaAcks, Settings


@pytest.mark.parametrize(
    ("environ", "cluster"),
    [
        ({"REDIS_URL": "redis://10.0.0.1:6379/0"}, False),
        ({"REDIS_URL": "redis://10.0.0.1:6379/0", "REDIS_CLUSTER": "1"}, True),
        ({"REDIS_URL": "redis+cluster://10.0.0.1:7000"}, True),
        ({"REDIS_URL": "rediss+cluster://10.0.0.1:7000"}, True),
    ],
)
def test_the_settings_say_whether_redis_is_a_cluster(environ: dict[str, str], cluster: bool) -> None:
    settings = Settings.from_env({**environ, "CELERY_BROKER_URL": "redis://10.0.0.2:6379/0"})
    assert settings.cluster is cluster
    assert clustered(async_client(settings)) is cluster
    assert isinstance(async_client(settings), RedisCluster) is cluster


def test_a_cluster_url_reads_as_the_node_url_redis_py_knows() -> None:
    assert node_url("redis+cluster://10.0.0.1:7000") == "redis://10.0.0.1:7000"
    assert node_url("rediss+cluster://user:pw@10.0.0.1:7000") == "rediss://user:pw@10.0.0.1:7000"
    assert node_url("redis://10.0.0.1:6379/0") == "redis://10.0.0.1:6379/0"
    tls = Settings.from_env({"REDIS_URL": "rediss+cluster://10.0.0.1:7000"}).redis_tls
    assert tls.options("rediss+cluster://10.0.0.1:7000")["ssl_cert_reqs"] is not None


def test_celery_needs_a_broker_of_its_own_beside_a_cluster() -> None:
    settings = Settings.from_env({"REDIS_URL": "redis+cluster://10.0.0.1:7000"})
    with pytest.raises(ValueError, match="set CELERY_BROKER_URL to a plain Redis"):
        _ = settings.broker_url
    own = Settings.from_env(
        {"REDIS_URL": "redis+cluster://10.0.0.1:7000", "CELERY_BROKER_URL": "redis://b:6379/0"}
    )
    assert own.broker_url == "redis://b:6379/0"
    assert Settings.from_env({"REDIS_URL": "redis://a:6379/0"}).broker_url == "redis://a:6379/0"


def test_the_replica_acknowledgement_policy_is_off_unless_asked_and_checked() -> None:
    assert Settings.from_env({}).replica_acks == ReplicaAcks(replicas=0, timeout_ms=100)
    asked = Settings.from_env({"REDIS_WAIT_REPLICAS": "1", "REDIS_WAIT_TIMEOUT_MS": "50"})
    assert asked.replica_acks == ReplicaAcks(replicas=1, timeout_ms=50)
    for bad in ({"REDIS_WAIT_REPLICAS": "-1"}, {"REDIS_WAIT_TIMEOUT_MS": "0"}):
        with pytest.raises(ValueError, match="REDIS_WAIT"):
            Settings.from_env(bad)
