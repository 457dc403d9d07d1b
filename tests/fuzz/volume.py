"""How many requests a fuzz run generates: a few hundred in `make test`, ten thousand and more in
`make chaos`, chosen by the environment variable FUZZ_PROFILE (`test`, the default, or `volume`).

Each test asks for its share as a weight: its examples are the profile's unit times the weight.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE_VARIABLE = "FUZZ_PROFILE"
UNIT_EXAMPLES = {"test": 12, "volume": 400}  # examples per unit of weight
PROFILE = os.environ.get(PROFILE_VARIABLE, "test")
if PROFILE not in UNIT_EXAMPLES:
    raise ValueError(f"{PROFILE_VARIABLE} must be one of {', '.join(UNIT_EXAMPLES)}, not {PROFILE!r}")
UNIT = UNIT_EXAMPLES[PROFILE]


def fuzz(weight: float = 1.0, **overrides: object) -> settings:
    """Settings for a fuzz test of this profile: `weight` units of examples, no deadline (every example
    is a real call), no example database, health checks that a live backend trips disabled."""
    return settings(
        max_examples=max(1, round(UNIT * weight)),
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.function_scoped_fixture,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
        **overrides,  # type: ignore[arg-type]
    )
