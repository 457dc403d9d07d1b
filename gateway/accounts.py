"""AccountService: guests, named accounts with passwords, sign-in and -out, operators' own users."""

from __future__ import annotations

import re

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from gateway import auth, limits, names, throttle, written
from gateway.errors import rpc
from i18n.messages import LOCALE_TAG
from live import guests, keys
from live.errors import GatewayError, invalid, unauthenticated
from live.replies import text
from live.table import Table

USERNAME_MAX = 32
USERNAME = re.compile(rf"[A-Za-z0-9_-]{{3,{USERNAME_MAX}}}")
DISPLAY_NAME_MAX = 32
PASSWORD_MIN, PASSWORD_MAX = 8, 128
EXTERNAL_ID_MAX = 128
LOCALE_MAX = 35  # the longest BCP 47 tag a client should send (RFC 5646 §4.4.1)
WRONG_CREDENTIALS = "wrong user name or password"


def display_name(value: str) -> str:
    """The name, trimmed; INVALID_ARGUMENT unless it has 1 to 32 characters, written as `gateway.written`
    has it."""
    name = value.strip()
    field = "display_name"
    if not 1 <= len(name) <= DISPLAY_NAME_MAX:
        raise invalid(
            "INVALID_DISPLAY_NAME", f"{field} must have 1 to {DISPLAY_NAME_MAX} characters", field=field
        )
    if (found := written.hidden(name)) is not None:
        raise invalid("INVALID_DISPLAY_NAME", f"{field} {written.described(*found)}", field=field)
    return name


def _username(value: str) -> str:
    if not USERNAME.fullmatch(value):
        raise invalid(
            "INVALID_USERNAME",
            "username must have 3 to 32 characters, each a letter, a digit, '_' or '-'",
            field="username",
        )
    return value


def _password(value: str) -> str:
    if not PASSWORD_MIN <= len(value) <= PASSWORD_MAX:
        raise invalid(
            "INVALID_PASSWORD",
            f"password must have {PASSWORD_MIN} to {PASSWORD_MAX} characters",
            field="password",
        )
    return value


class AccountService(gateway_pb2_grpc.AccountServiceServicer):
    """Signs players in and out."""

    def __init__(self, app: Table) -> None:
        self.app = app

    def _name(self, value: str, field: str = "display_name") -> str:
        """A display name as `display_name` checks it, and not a reserved one."""
        name = display_name(value)
        names.refuse_reserved(name, self.app.settings, field)
        return name

    @rpc
    async def CreateGuest(
        self, request: gateway_pb2.CreateGuestRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.CreateGuestResponse:
        """A new guest, signed in (counted per client address); its keys expire once it idles
        (`live.guests`)."""
        await limits.count(self.app, keys.address_subject(limits.client_address(context, self.app.settings)))
        name = self._name(request.display_name)
        player = await auth.create_player(self.app, name, guest=True)
        await guests.seen(self.app, player)
        return gateway_pb2.CreateGuestResponse(session=await auth.new_session(self.app, player.player_id))

    @rpc
    async def Register(
        self, request: gateway_pb2.RegisterRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.RegisterResponse:
        """A new named account, signed in; ALREADY_EXISTS if the user name is taken.

        A person choosing a name must learn that it is taken, so the refusal says so; what it does not
        give away is more than that: the password is hashed first, so a taken name takes as long as a
        free one, and each taken name counts as a failed sign-in of the address (`gateway.throttle`),
        so names cannot be tried in bulk."""
        address = limits.client_address(context, self.app.settings)
        await throttle.check(self.app, None, address)
        await limits.count(self.app, keys.address_subject(address))
        username = _username(request.username)
        password = _password(request.password)
        name = self._name(request.display_name) if request.display_name else username
        names.refuse_reserved(username, self.app.settings, "username")
        password_hash = await auth.hash_password(password)
        if await self.app.redis.exists(keys.username(username)):
            await throttle.failed(self.app, None, address)
            raise _taken(username)
        # The record is written before the name is claimed, so a claimed name always has a player;
        # losing the claim to a concurrent registration removes the unused record again.
        player = await auth.create_player(self.app, name, guest=False, username=username)
        await self.app.redis.set(keys.password(player.player_id), password_hash)
        if not await self.app.redis.set(keys.username(username), player.player_id, nx=True):
            await auth.delete_player(self.app, player.player_id)
            await throttle.failed(self.app, None, address)
            raise _taken(username)
        return gateway_pb2.RegisterResponse(session=await auth.new_session(self.app, player.player_id))

    @rpc
    async def SignIn(
        self, request: gateway_pb2.SignInRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SignInResponse:
        """A new session for a named account; UNAUTHENTICATED for a wrong name or password alike, and
        SIGN_IN_THROTTLED once the account or the address failed too often (`gateway.throttle`)."""
        address = limits.client_address(context, self.app.settings)
        username = request.username
        await throttle.check(self.app, username or None, address)
        await limits.count(self.app, keys.address_subject(address))
        if not username or not request.password:
            raise invalid("MISSING_CREDENTIALS", "username and password are both required")
        player_id = ""
        if USERNAME.fullmatch(request.username) and len(request.password) <= PASSWORD_MAX:
            player_id = text(await self.app.redis.get(keys.username(request.username)) or "")
        stored = await self.app.redis.get(keys.password(player_id)) if player_id else None
        matches = await auth.check_password(request.password[:PASSWORD_MAX], text(stored) if stored else None)
        if not player_id or not matches:
            await throttle.failed(self.app, username, address)
            raise unauthenticated(WRONG_CREDENTIALS)
        await throttle.succeeded(self.app, username, address)
        return gateway_pb2.SignInResponse(session=await auth.new_session(self.app, player_id))

    @rpc
    async def SignOut(
        self, request: gateway_pb2.SignOutRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SignOutResponse:
        """Revoke the call's token."""
        await auth.authenticate(self.app, context)
        await auth.revoke(self.app, auth.bearer_token(context))
        return gateway_pb2.SignOutResponse()

    @rpc
    async def GetMe(
        self, request: gateway_pb2.GetMeRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetMeResponse:
        """The signed-in player."""
        principal = await auth.authenticate(self.app, context)
        locale = await self.app.redis.hget(keys.player(principal.player.player_id), "locale")
        return gateway_pb2.GetMeResponse(player=principal.player, locale=text(locale or ""))

    @rpc
    async def SetLocale(
        self, request: gateway_pb2.SetLocaleRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetLocaleResponse:
        """Keep the signed-in player's preferred locale (empty: clear it)."""
        principal = await auth.authenticate(self.app, context)
        locale = request.locale
        if locale and (len(locale) > LOCALE_MAX or not LOCALE_TAG.match(locale)):
            raise invalid(
                "INVALID_LOCALE",
                f"{locale[:LOCALE_MAX]!r} is not a locale (expected a tag such as en, zh-TW or zh_Hant)",
                field="locale",
            )
        key = keys.player(principal.player.player_id)
        if locale:
            await self.app.redis.hset(key, "locale", locale)
        else:
            await self.app.redis.hdel(key, "locale")
        return gateway_pb2.SetLocaleResponse(locale=locale)

    @rpc
    async def IssuePlayerToken(
        self, request: gateway_pb2.IssuePlayerTokenRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.IssuePlayerTokenResponse:
        """A session for an operator's user; the same external id always gets the same player."""
        operator = await auth.authenticate_operator(self.app, context)
        await limits.count(self.app, keys.api_key_subject(operator.key_hash))
        external_id = request.external_id
        if not 1 <= len(external_id) <= EXTERNAL_ID_MAX or not external_id.isprintable():
            raise invalid(
                "INVALID_EXTERNAL_ID",
                f"external_id must have 1 to {EXTERNAL_ID_MAX} printable characters",
                field="external_id",
            )
        name = self._name(request.display_name)
        mapping = keys.external_player(operator.name, external_id)
        known = await self.app.redis.get(mapping)
        if known is not None:
            player_id = text(known)
            await self.app.redis.hset(keys.player(player_id), "display_name", name)
        else:
            player = await auth.create_player(self.app, name, guest=False)
            player_id = player.player_id
            if not await self.app.redis.set(mapping, player_id, nx=True):
                await auth.delete_player(self.app, player_id)
                player_id = text(await self.app.redis.get(mapping) or "")
        session = await auth.new_session(self.app, player_id, minted_by=operator)
        return gateway_pb2.IssuePlayerTokenResponse(session=session)


def _taken(username: str) -> GatewayError:
    return GatewayError(
        grpc.StatusCode.ALREADY_EXISTS,
        "USERNAME_TAKEN",
        f"the user name {username!r} is taken",
        field="username",
    )


def add_to_server(app: Table, server: grpc.aio.Server) -> None:
    """Serve AccountService on `server`."""
    gateway_pb2_grpc.add_AccountServiceServicer_to_server(AccountService(app), server)
