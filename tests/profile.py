"""How much the generated tests run: `test`, the default (`make test`, within its time), or `volume`
(`make chaos`: the fuzz's 10,000+ bad requests, the conformance suite's every seed), chosen by the
environment variable TEST_PROFILE."""

from __future__ import annotations

import os

PROFILE_VARIABLE = "TEST_PROFILE"
PROFILES = ("test", "volume")
PROFILE = os.environ.get(PROFILE_VARIABLE, "test")
if PROFILE not in PROFILES:
    raise ValueError(f"{PROFILE_VARIABLE} must be one of {', '.join(PROFILES)}, not {PROFILE!r}")
