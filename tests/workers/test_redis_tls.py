"""Redis over TLS, as the production overlay configures it (rediss:// URLs): a redis-server that speaks
only TLS on loopback, with a throwaway certificate authority made here, serves the gateway and a
`python -m workers` process (its broker, its results and its own Redis clients)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
import yaml

from deploy import programs
from deploy.throwaway import redis_server, start_worker_process, stop_worker_process
from live.connection import sync_client
from live.settings import RedisTls
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import bot_seat, finalized, new_game, wait_for

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_CONFIG = ROOT / "deploy/k8s/overlays/production/external-redis.yaml"
LEAF = ["-out", "redis.crt", "-days", "1", "-extfile", "leaf.ext"]
LEAF_EXTENSIONS = "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n"


def throwaway_certificates(folder: Path) -> RedisTls:
    """A new CA and one certificate it signs for 127.0.0.1, good for the server and the clients."""
    openssl = programs.installed("openssl", os.environ, [])
    assert openssl is not None, programs.missing_hint("openssl")
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    (folder / "leaf.ext").write_text(LEAF_EXTENSIONS)
    for command in (
        ["req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.crt", "-days", "1", "-subj", "/CN=test CA"],
        ["req", *key, "-keyout", "redis.key", "-out", "redis.csr", "-subj", "/CN=localhost"],
        ["x509", "-req", "-in", "redis.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", *LEAF],
    ):
        subprocess.run([openssl, *command], cwd=folder, check=True, capture_output=True)
    return RedisTls(
        ca_file=str(folder / "ca.crt"),
        cert_file=str(folder / "redis.crt"),
        key_file=str(folder / "redis.key"),
    )


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> RedisTls:
    return throwaway_certificates(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_url(tls: RedisTls) -> Iterator[str]:
    with redis_server(tls) as url:
        yield url


def production_environment(url: str, tls: RedisTls) -> dict[str, str]:
    """The production overlay's Redis settings pointed at `url`'s host and port, with the CA and the
    client certificate of `tls`."""
    data = yaml.safe_load(PRODUCTION_CONFIG.read_text())["data"]
    assert {"REDIS_URL", "CELERY_BROKER_URL"} <= set(data) and all(
        v.startswith(("rediss://", "rediss+cluster://")) for v in data.values()
    )
    # Game state is on a TLS Cluster there (tests/gateway/test_failover.py covers a Cluster); this
    # one TLS node stands for each of its Redis servers, so the URLs keep TLS and drop the cluster.
    netloc = urlsplit(url).netloc
    env = {
        name: urlsplit(value)._replace(scheme="rediss", netloc=netloc).geturl()
        for name, value in data.items()
    }
    return {
        **env,
        "REDIS_TLS_CA_FILE": tls.ca_file,
        "REDIS_TLS_CERT_FILE": tls.cert_file,
        "REDIS_TLS_KEY_FILE": tls.key_file,
    }


def test_the_server_speaks_only_tls_and_a_certificate_no_known_authority_signed_is_refused(
    tls_url: str, tls: RedisTls
) -> None:
    plain = sync_client(tls_url.replace("rediss://", "redis://"), socket_timeout=2)
    with pytest.raises(redis.ConnectionError):
        plain.ping()
    # The default checks the server's certificate against the system's authorities, which never
    # signed this one.
    unverified = RedisTls(cert_file=tls.cert_file, key_file=tls.key_file)
    with pytest.raises(redis.ConnectionError, match="certificate verify failed"):
        sync_client(tls_url, **unverified.options(tls_url)).ping()
    assert sync_client(tls_url, **tls.options(tls_url)).ping()


def test_the_gateway_keeps_its_accounts_in_a_tls_redis(
    tls_url: str, tls: RedisTls, rules: dict[str, str]
) -> None:
    import grpc

    with GatewayProcess(gateway_settings(tls_url, rules, redis_tls=tls)) as gateway:
        with grpc.insecure_channel(gateway.address) as channel:
            session = Client(channel).sign_in_as_guest("alice")
        assert session.token
        assert sync_client(tls_url, **tls.options(tls_url)).dbsize() > 0


def test_the_operators_admin_command_works_on_a_tls_redis(tls_url: str, tls: RedisTls) -> None:
    env = {**os.environ, **production_environment(tls_url, tls)}
    command = [sys.executable, "-m", "gateway.admin", "create-api-key", "--operator", "ops"]
    result = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_a_worker_with_the_production_settings_plays_a_bot_game_over_tls(
    tls_url: str, tls: RedisTls, rules: dict[str, str]
) -> None:
    env = production_environment(tls_url, tls)
    settings = gateway_settings(
        env["REDIS_URL"], rules, celery_broker_url=env["CELERY_BROKER_URL"], redis_tls=tls
    )
    client = sync_client(tls_url, **tls.options(tls_url))
    with GatewayProcess(settings) as gateway:
        worker = start_worker_process(env["REDIS_URL"], ",".join(rules.values()), env)
        try:
            game_id = new_game(
                gateway, TITLE, [bot_seat(gateway, 0, "random"), bot_seat(gateway, 1, "random")]
            )
            wait_for(lambda: finalized(client, game_id) or worker.poll() is not None, 240, "the game's end")
            assert worker.poll() is None, f"the worker exited with code {worker.returncode}"
            assert finalized(client, game_id)
        finally:
            stop_worker_process(worker)
