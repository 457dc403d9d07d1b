"""Check or regenerate the golden playthroughs: `python -m tests.golden [--regenerate]`."""

from __future__ import annotations

import argparse
import difflib
import sys

from tests.golden import expected, stale_files


def main(argv: list[str] | None = None) -> int:
    """Rewrite the golden files with --regenerate; otherwise report which differ (exit status 1)."""
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("--regenerate", action="store_true", help="rewrite every golden file")
    args = parser.parse_args(argv)
    wanted = expected()
    stale = stale_files(list(wanted))
    if args.regenerate:
        for path, text in wanted.items():
            old = path.read_text() if path.exists() else None
            path.write_text(text)
            print(f"{'unchanged' if old == text else 'written'}: {path}")
        for path in stale:
            path.unlink()
            print(f"removed: {path}")
        return 0
    differing = 0
    for path, text in wanted.items():
        old = path.read_text() if path.exists() else ""
        if old != text:
            differing += 1
            sys.stdout.writelines(
                difflib.unified_diff(
                    old.splitlines(keepends=True), text.splitlines(keepends=True), str(path), "now"
                )
            )
    for path in stale:
        print(f"stale: {path}")
    if differing or stale:
        print("golden playthroughs differ; run `make golden` if the change is intended")
        return 1
    print(f"{len(wanted)} golden playthroughs match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
