"""Fixtures shared by the tests of services.common."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.common.metrics import start_metrics_server


@pytest.fixture(scope="session")
def metrics_port() -> Iterator[int]:
    """The port of a /metrics server for this test process (the registry is process-wide)."""
    metrics = start_metrics_server(0, "127.0.0.1")
    try:
        yield metrics.port
    finally:
        metrics.stop()
