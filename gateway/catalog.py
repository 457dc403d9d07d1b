"""CatalogService: the titles this gateway's rules services play, and each title's static data."""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from boardgame.rules.v1 import rules_pb2

from gateway import auth
from gateway.errors import rpc
from live.errors import invalid
from live.table import Table


class CatalogService(gateway_pb2_grpc.CatalogServiceServicer):
    """Lists the titles with their static facts and options, and serves each title's static data,
    asked of its rules service once and kept (it is the same for every game of the title, as the
    title's GameInfo is, which the gateway also asks for once)."""

    def __init__(self, app: Table) -> None:
        self.app = app
        self._data: dict[str, rules_pb2.GameData] = {}

    @rpc
    async def ListTitles(
        self, request: gateway_pb2.ListTitlesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListTitlesResponse:
        """Every title, sorted by name."""
        await auth.authenticate(self.app, context)
        titles = sorted(self.app.rules.titles.values(), key=lambda title: title.info.name)
        return gateway_pb2.ListTitlesResponse(titles=[title.info for title in titles])

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
