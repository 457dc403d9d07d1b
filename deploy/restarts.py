"""When the local launcher starts a process again after it died: a growing pause, and a bounded number
of quick failures in a row before it gives up.

A run shorter than `quick_seconds` is a quick failure (a process that cannot start, or dies at once
again and again); a longer one resets the count, so a process killed now and then is always started
again. The pause after the n-th quick failure in a row is `first_delay_seconds` doubled n - 1 times, at
most `max_delay_seconds`.

Environment: RESTART_FIRST_DELAY_SECONDS (0.5), RESTART_MAX_DELAY_SECONDS (10), RESTART_QUICK_SECONDS
(10), RESTART_MAX_QUICK_FAILURES (5).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class RestartPolicy:
    """How long to wait before starting a dead process again, and when to give up."""

    first_delay_seconds: float = 0.5
    max_delay_seconds: float = 10.0
    quick_seconds: float = 10.0
    max_quick_failures: int = 5

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> RestartPolicy:
        """The policy of the RESTART_* variables (see the module docstring)."""
        return cls(
            first_delay_seconds=float(environ.get("RESTART_FIRST_DELAY_SECONDS", cls.first_delay_seconds)),
            max_delay_seconds=float(environ.get("RESTART_MAX_DELAY_SECONDS", cls.max_delay_seconds)),
            quick_seconds=float(environ.get("RESTART_QUICK_SECONDS", cls.quick_seconds)),
            max_quick_failures=int(environ.get("RESTART_MAX_QUICK_FAILURES", cls.max_quick_failures)),
        )

    def delay(self, quick_failures: int) -> float:
        """The pause before the next start after `quick_failures` quick failures in a row (0: after a
        long run)."""
        return min(self.max_delay_seconds, self.first_delay_seconds * 2 ** max(0, quick_failures - 1))


@dataclass
class Restarts:
    """One process's record of deaths under a policy."""

    policy: RestartPolicy
    quick_failures: int = 0
    count: int = 0  # starts after the first

    def after_exit(self, ran_seconds: float) -> float | None:
        """The pause before starting the process again after a run of `ran_seconds`; None: give up."""
        self.quick_failures = self.quick_failures + 1 if ran_seconds < self.policy.quick_seconds else 0
        if self.quick_failures >= self.policy.max_quick_failures:
            return None
        self.count += 1
        return self.policy.delay(self.quick_failures)


def exit_text(code: int) -> str:
    """A process's exit code as people read it: `code 3`, or `code -9 (SIGKILL)` for a signal."""
    if code < 0:
        try:
            return f"code {code} ({signal.Signals(-code).name})"
        except ValueError:
            pass
    return f"code {code}"
