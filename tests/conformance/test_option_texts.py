"""Every title's lobby options speak the player's language: for each option its rules service lists
(GetGameInfo), every catalog it serves (GetCatalog) holds the option's label, its description (help)
and each listed choice in words, under the ids of `i18n.options`, with the argument names the
description's Text gives (labels and choices take none); the description carries that Text, and its
English rendering with the served catalog is the description itself (docs/translations.md)."""

from __future__ import annotations

import pytest
from boardgame.rules.v1 import rules_pb2

from i18n.messages import Catalog, pattern_arguments
from i18n.options import HELP, choice_id, help_id, label_id
from services.common import registry
from tests.conformance.drivers import RPC_TIMEOUT_SECONDS, GrpcDriver, Pool


def served(pool: Pool, title: str) -> tuple[rules_pb2.GameInfo, dict[str, rules_pb2.GetCatalogResponse]]:
    """The title's GameInfo and every catalog its rules service offers, as it serves them."""
    driver = pool.driver("grpc", title)
    assert isinstance(driver, GrpcDriver)
    stub = driver.stub
    info = stub.GetGameInfo(rules_pb2.GetGameInfoRequest(), timeout=RPC_TIMEOUT_SECONDS).info
    english = stub.GetCatalog(rules_pb2.GetCatalogRequest(locale="en"), timeout=RPC_TIMEOUT_SECONDS)
    catalogs = {
        locale: stub.GetCatalog(rules_pb2.GetCatalogRequest(locale=locale), timeout=RPC_TIMEOUT_SECONDS)
        for locale in english.locales
    }
    return info, catalogs


def problems(info: rules_pb2.GameInfo, catalogs: dict[str, dict[str, str]]) -> list[str]:
    """What is missing or wrong in the catalogs (locale -> id -> pattern) for the options of `info`."""
    found = []
    title = info.name
    english = Catalog("en", catalogs["en"])
    for option in info.options:
        name = option.name
        if option.message.template != help_id(title, name):
            found.append(f"{name}: the description's Text is {option.message.template!r}")
            continue
        if HELP in option.choices:
            found.append(f"{name}: a choice named {HELP!r} takes the description's id")
        arguments = {argument.name for argument in option.message.arguments}
        wanted = [
            (label_id(title, name), set()),
            (help_id(title, name), arguments),
            *((choice_id(title, name, choice), set()) for choice in option.choices),
        ]
        for locale, messages in catalogs.items():
            for message_id, names in wanted:
                if message_id not in messages:
                    found.append(f"{locale}: {message_id} missing")
                elif (taken := pattern_arguments(messages[message_id])) != names:
                    found.append(f"{locale}: {message_id} takes {sorted(taken)}")
        if help_id(title, name) in english.messages and english.render(option.message) != option.description:
            found.append(f"{name}: the English help is not the description {option.description!r}")
    return found


@pytest.mark.parametrize("title", list(registry.games()))
def test_every_option_has_its_label_help_and_choices_in_every_catalog(pool: Pool, title: str) -> None:
    info, catalogs = served(pool, title)
    assert sorted(catalogs) == ["en", "zh_Hans", "zh_Hant"]
    assert info.options, f"{title} lists no options"
    messages = {locale: dict(reply.messages) for locale, reply in catalogs.items()}
    assert problems(info, messages) == []
    # Translated: each label, help and choice of every other locale reads otherwise than the English.
    for locale, patterns in messages.items():
        if locale == "en":
            continue
        for option in info.options:
            ids = [label_id(title, option.name), *(choice_id(title, option.name, c) for c in option.choices)]
            for message_id in ids:
                assert patterns[message_id] != messages["en"][message_id], (locale, message_id)
            shown = Catalog(locale, patterns).render(option.message)
            assert shown != option.description, (locale, option.name)


@pytest.mark.parametrize("title", list(registry.games()))
def test_a_missing_or_mismatched_option_message_is_found(pool: Pool, title: str) -> None:
    info, catalogs = served(pool, title)
    messages = {locale: dict(reply.messages) for locale, reply in catalogs.items()}
    option = info.options[-1]
    choice = choice_id(title, option.name, option.choices[-1])
    del messages["zh_Hans"][choice]
    messages["zh_Hant"][label_id(title, option.name)] = "{extra}"
    messages["en"][help_id(title, option.name)] += "."
    assert problems(info, messages) == [
        f"zh_Hans: {choice} missing",
        f"zh_Hant: {label_id(title, option.name)} takes ['extra']",
        f"{option.name}: the English help is not the description {option.description!r}",
    ]
