"""The sign-in back-off: failed sign-ins are counted per account (user name) from each client address,
and per address, and past a number of them (SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_FAILURES_PER_ADDRESS)
each further failure locks that account's sign-ins from that address, or all the address's, for twice
as long as the one before (1 s, 2 s, 4 s, ... up to SIGN_IN_LOCKOUT_SECONDS). An account is never
locked as a whole: an attacker guessing from one address locks that address out of the account, never
its owner signing in from another. Failures are forgotten SIGN_IN_LOCKOUT_SECONDS after the last one;
a correct password clears its account's count from its address.

A locked sign-in is refused before its password is hashed, so guessing costs the gateway nothing
once the lock holds: RESOURCE_EXHAUSTED, reason SIGN_IN_THROTTLED, with the time the lock has left as
`retry_after_ms` and a RetryInfo detail, whatever the password.
"""

from __future__ import annotations

from collections.abc import Sequence

from gateway.limits import RetryLater
from live import keys
from live.settings import Settings
from live.table import Table

FIRST_LOCK_MS = 1000

# KEYS: failures, lock; ARGV: failures allowed, first lock (ms), longest lock and memory (ms).
FAILED_SCRIPT = """
local failures = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local over = failures - tonumber(ARGV[1])
if over >= 0 then
  local lock = math.min(tonumber(ARGV[2]) * 2 ^ math.min(over, 40), tonumber(ARGV[3]))
  redis.call('SET', KEYS[2], failures, 'PX', math.floor(lock))
end
return failures
"""


class SignInThrottled(RetryLater):
    """RESOURCE_EXHAUSTED: too many failed sign-ins of this account or from this address lately."""

    def __init__(self, retry_ms: int) -> None:
        super().__init__(
            "SIGN_IN_THROTTLED",
            f"too many failed sign-ins lately; retry in {retry_ms} ms",
            retry_ms,
        )


def _subjects(settings: Settings, username: str | None, address: str) -> list[tuple[str, int]]:
    """(subject, failures allowed) of the account from the address, if any, and of the address."""
    named = (
        [(keys.account_subject(username, address), settings.sign_in_failures_per_account)] if username else []
    )
    return [*named, (keys.address_subject(address), settings.sign_in_failures_per_address)]


async def check(app: Table, username: str | None, address: str) -> None:
    """SignInThrottled while the account's sign-ins from the address, or all the address's, are locked."""
    locks: Sequence[int] = []
    async with app.redis.pipeline(transaction=False) as pipe:
        for subject, _ in _subjects(app.settings, username, address):
            pipe.pttl(keys.sign_in_lock(subject))
        locks = await pipe.execute()
    wait = max((int(ms) for ms in locks), default=-1)
    if wait > 0:
        raise SignInThrottled(wait)


async def failed(app: Table, username: str | None, address: str) -> None:
    """Count a failed sign-in (or a registration of a taken name: `username` None) against the account
    from the address and the address, locking either once past its allowance."""
    settings = app.settings
    longest = settings.sign_in_lockout_seconds * 1000
    script = app.script(FAILED_SCRIPT)
    for subject, allowance in _subjects(settings, username, address):
        failures = (keys.sign_in_failures(subject), keys.sign_in_lock(subject))
        await script(keys=failures, args=[allowance, FIRST_LOCK_MS, longest])


async def succeeded(app: Table, username: str, address: str) -> None:
    """Forget the account's failed sign-ins from the address (the address's stay counted)."""
    await app.redis.delete(keys.sign_in_failures(keys.account_subject(username, address)))
