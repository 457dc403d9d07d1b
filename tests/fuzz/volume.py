"""How many requests a fuzz run generates: a few hundred in `make test`, ten thousand and more in
`make chaos` (the profile of `tests.profile`).

Each test asks for its share as a weight: its examples are the profile's unit times the weight.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from tests.profile import PROFILE

UNIT_EXAMPLES = {"test": 12, "volume": 400}  # examples per unit of weight
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
