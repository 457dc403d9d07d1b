"""CatalogService: the titles this gateway's rules services play (with their bot levels and the levels'
measured ratings, `live.levels`), and each title's static data."""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from boardgame.rules.v1 import rules_pb2

from gateway import auth
from gateway.errors import rpc
from i18n.messages import LOCALE_TAG
from live import levels, texts
from live.errors import invalid
from live.table import Table

CATALOG_MEMO = 256  # (title, locale tag) pairs whose catalog a gateway keeps


def bot_levels(title: str) -> gateway_pb2.TitleBotLevels:
    """The title's bot levels, weakest first, each with its rating as self-play measured it."""
    measured = levels.ratings(title)
    return gateway_pb2.TitleBotLevels(
        title=title,
        levels=[
            gateway_pb2.BotLevel(
                strength=level.strength,
                name=level.name,
                rating=measured[level.name].rating,
                mu=measured[level.name].mu,
                sigma=measured[level.name].sigma,
                games=measured[level.name].games,
                measured_on=measured[level.name].measured_on,
            )
            for level in levels.LEVELS
        ],
    )


class CatalogService(gateway_pb2_grpc.CatalogServiceServicer):
    """Lists the titles with their static facts and options, and serves each title's static data,
    asked of its rules service once and kept (it is the same for every game of the title, as the
    title's GameInfo is, which the gateway also asks for once)."""

    def __init__(self, app: Table) -> None:
        self.app = app
        self._data: dict[str, rules_pb2.GameData] = {}
        self._catalogs: dict[tuple[str, str], rules_pb2.GetCatalogResponse] = {}

    @rpc
    async def ListTitles(
        self, request: gateway_pb2.ListTitlesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListTitlesResponse:
        """Every title, sorted by name."""
        await auth.authenticate(self.app, context)
        titles = sorted(self.app.rules.titles.values(), key=lambda title: title.info.name)
        return gateway_pb2.ListTitlesResponse(
            titles=[title.info for title in titles],
            bot_levels=[bot_levels(title.info.name) for title in titles],
        )

    @rpc
    async def GetTitleData(
        self, request: gateway_pb2.GetTitleDataRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetTitleDataResponse:
        """A title's static data; only its digest when the client's `known_digest` is current.
        INVALID_ARGUMENT without a title, NOT_FOUND for a title no rules service plays."""
        await auth.authenticate(self.app, context)
        if not request.title:
            raise invalid("MISSING_TITLE", "title is required", field="title")
        data = await self.title_data(request.title)
        if request.known_digest and request.known_digest == data.digest:
            return gateway_pb2.GetTitleDataResponse(
                data=rules_pb2.GameData(digest=data.digest), unchanged=True
            )
        return gateway_pb2.GetTitleDataResponse(data=data)

    @rpc
    async def GetCatalog(
        self, request: gateway_pb2.GetCatalogRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetCatalogResponse:
        """A title's message catalog in the locale nearest the one asked for; only its digest when
        the client's `known_digest` is current. INVALID_ARGUMENT without a title or for a locale that
        is malformed, NOT_FOUND for a title no rules service plays or one without catalogs."""
        await auth.authenticate(self.app, context)
        if not request.title:
            raise invalid("MISSING_TITLE", "title is required", field="title")
        if request.locale and not LOCALE_TAG.match(request.locale):
            raise invalid(
                "INVALID_LOCALE",
                f"{request.locale!r} is not a locale (expected a tag such as en, zh-TW or zh_Hant)",
                field="locale",
            )
        catalog = await self.catalog(request.title, request.locale)
        if request.known_digest and request.known_digest == catalog.digest:
            unchanged = rules_pb2.GetCatalogResponse(
                locale=catalog.locale, digest=catalog.digest, locales=catalog.locales
            )
            return gateway_pb2.GetCatalogResponse(catalog=unchanged, unchanged=True)
        return gateway_pb2.GetCatalogResponse(catalog=catalog)

    async def catalog(self, name: str, locale: str) -> rules_pb2.GetCatalogResponse:
        """The title's catalog for a locale tag, from its rules service the first time, with the live
        table's own messages of that locale added (`live.texts`; kept by the tag asked for; at most
        CATALOG_MEMO of them)."""
        key = (name, locale)
        found = self._catalogs.get(key)
        if found is None:
            title = self.app.rules.get(name)
            found = texts.merged(await title.call("GetCatalog", rules_pb2.GetCatalogRequest(locale=locale)))
            if len(self._catalogs) >= CATALOG_MEMO:
                self._catalogs.clear()
            self._catalogs[key] = found
        return found

    async def title_data(self, name: str) -> rules_pb2.GameData:
        """The title's GameData, from its rules service the first time."""
        found = self._data.get(name)
        if found is None:
            title = self.app.rules.get(name)
            response = await title.call("GetGameData", rules_pb2.GetGameDataRequest())
            found = self._data[name] = response.data
        return found


def add_to_server(app: Table, server: grpc.aio.Server) -> None:
    """Serve CatalogService on `server`."""
    gateway_pb2_grpc.add_CatalogServiceServicer_to_server(CatalogService(app), server)
