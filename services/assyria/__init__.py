"""Assyria rules: a pure engine over native data, its codec, and its gRPC service."""

from services.assyria.game import ASSYRIA as GAME

__all__ = ["GAME"]
