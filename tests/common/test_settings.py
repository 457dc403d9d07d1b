"""The gateway's and workers' settings from the environment: every plain field has its variable, a value
that does not parse is refused naming its variable, and the operators' listing is the defaults."""

from __future__ import annotations

from dataclasses import fields

import pytest

from live.settings import Settings, variables


def _other(value: object) -> str:
    """A value of the same type as `value` that differs from it."""
    if isinstance(value, float):
        return str(value + 1.5)
    if isinstance(value, int):
        return str(value + 3)
    return f"{value}-other"


def test_each_listed_variable_sets_its_field() -> None:
    defaults = Settings()
    listed = dict(variables())
    assert "TOKEN_TTL_SECONDS" in listed and "MATCH_TICK_SECONDS" in listed and "REDIS_URL" in listed
    by_variable = {option.name.upper(): option.name for option in fields(Settings)}
    for variable, default in listed.items():
        name = by_variable[variable]
        assert default == str(getattr(defaults, name))
        value = _other(getattr(defaults, name))
        read = getattr(Settings.from_env({variable: value}), name)
        assert str(read) == value, variable


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("TOKEN_TTL_SECONDS", "a month", "TOKEN_TTL_SECONDS must be an int, not 'a month'"),
        ("MATCH_TICK_SECONDS", "fast", "MATCH_TICK_SECONDS must be a float, not 'fast'"),
        ("RATE_LIMIT_MOVE_PER_SECOND", "10.5", "RATE_LIMIT_MOVE_PER_SECOND must be an int, not '10.5'"),
        ("HISTORY_PER_PLAYER", "0", "HISTORY_PER_PLAYER must be 1 or more, not 0"),
    ],
)
def test_a_value_that_does_not_parse_names_its_variable(variable: str, value: str, says: str) -> None:
    with pytest.raises(ValueError) as refused:
        Settings.from_env({variable: value})
    assert str(refused.value) == says


def test_the_variables_of_other_forms() -> None:
    settings = Settings.from_env(
        {
            "GATEWAY_ADDRESS": "127.0.0.1:1",
            "RULES_ADDRESSES": " a:1, b:2 ,",
            "CLIENT_ADDRESS_HEADER": " X-Forwarded-For ",
            "RESERVED_NAMES": "root, staff",
            "REDIS_CLUSTER": "yes",
            "ADDRESS": "ignored: the gateway's address is GATEWAY_ADDRESS",
        }
    )
    assert settings.address == "127.0.0.1:1"
    assert settings.rules_addresses == ("a:1", "b:2")
    assert settings.client_address_header == "x-forwarded-for"
    assert settings.reserved_names == ("root", "staff")
    assert settings.cluster
