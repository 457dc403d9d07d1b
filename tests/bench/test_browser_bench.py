"""`make bench`'s browser table runs end to end: real processes, moves timed over both transports, the
web client's bundle weighed."""

from __future__ import annotations

import gzip
import re

from bench import browser


def test_the_browser_benchmark_times_both_transports_and_weighs_the_bundle() -> None:
    table = browser.measure(moves=10)
    rows = {
        cells[0]: cells[1:]
        for cells in (re.split(r"\s{2,}", line.strip()) for line in table.splitlines()[3:])
    }
    assert float(rows["SubmitAction p50 ms, native gRPC"][1]) > 0
    assert float(rows["SubmitAction p50 ms, Connect (browser transport)"][1]) > 0
    assert rows["Connect p50 / native p50"][0] == "10"
    raw, zipped = browser.bundle_bytes()
    assert 0 < zipped < raw
    app = (browser.WEB_CLIENT_DIR / "app.js").read_bytes()
    assert zipped >= len(gzip.compress(app, 9))
