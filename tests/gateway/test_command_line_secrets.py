"""The secrets a person types on a command line (operator API keys, invite codes) never begin with '-',
which argparse reads as an option: `revoke-api-key --key -Xy...` failed with a usage error for one key in
64. A key made before this, which may begin with '-', is revoked with the documented `--key=KEY`."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

from gateway.auth import TOKEN_BYTES, command_line_secret, digest
from live import keys
from live.connection import sync_client
from tests.redis_modes import ONE_NODE

DRAWS = 3000  # the old draw began with '-' about 47 times in as many


def test_no_drawn_secret_begins_with_a_dash_and_each_holds_its_bytes() -> None:
    drawn = [command_line_secret(TOKEN_BYTES) for _ in range(DRAWS)]
    assert not [secret for secret in drawn if secret.startswith("-")]
    assert len(set(drawn)) == DRAWS
    assert all(
        len(base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))) == TOKEN_BYTES for secret in drawn
    )
    assert any("-" in secret[1:] for secret in drawn), "the rest of the alphabet is kept"


@ONE_NODE
def test_a_key_beginning_with_a_dash_is_revoked_with_the_documented_form(redis_url: str) -> None:
    legacy = "-" + command_line_secret(TOKEN_BYTES)[1:]
    store = sync_client(redis_url)
    try:
        store.set(keys.api_key(digest(legacy)), "acme")
        done = subprocess.run(
            [sys.executable, "-m", "gateway.admin", "revoke-api-key", f"--key={legacy}"],
            env={**os.environ, "REDIS_URL": redis_url},
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        assert store.get(keys.api_key(digest(legacy))) is None
    finally:
        store.close()
