"""Failpoints: named places in the live path where a fault-injection run stops or kills the process.

FAILPOINT names one place and what happens there, `<place>:kill` (the process SIGKILLs itself, as a
`kill -9` at exactly that point would) or `<place>:stop` (it SIGSTOPs itself, until a SIGCONT, so
that a test can kill another process, such as Redis, at that point). Unset, as in every deployment,
`reach` does nothing. The places:

- `final-commit`: a game's last commit is written (with its follow-ups, `live.outbox`) and none of its
  follow-ups is performed yet: the scoring is not even queued.
"""

from __future__ import annotations

import os
import signal

FAILPOINT_VARIABLE = "FAILPOINT"
FINAL_COMMIT = "final-commit"
ACTIONS = {"kill": signal.SIGKILL, "stop": signal.SIGSTOP}

_place, _, _action = os.environ.get(FAILPOINT_VARIABLE, "").partition(":")


def reach(place: str) -> None:
    """The process reached `place`: stop or kill it there if FAILPOINT names the place."""
    if place == _place and _action in ACTIONS:
        os.kill(os.getpid(), ACTIONS[_action])
