"""Tests of the board-game backend."""
