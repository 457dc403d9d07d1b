"""What building the Go client (clients/go/build.sh) needs, each with the Debian package that gives
it: the Go compiler, protoc with its Go generators, and the Go sources of gRPC and protobuf in GOCODE
(/usr/share/gocode, where Debian's golang-*-dev packages put them), which the client builds against
offline in GOPATH mode. Missing ones are installed as deploy.programs installs programs: as root with
apt-get, unless INSTALL_PACKAGES=0. `make setup` runs this; so does the Go client's test.

Usage: python -m deploy.go_client   (exit 1 naming what is missing when CI=true, else 0 with a note)
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from deploy import programs

GOCODE = "/usr/share/gocode"
PROGRAMS = {
    "go": "golang-go",
    "protoc": "protobuf-compiler",
    "protoc-gen-go": "protoc-gen-go",
    "protoc-gen-go-grpc": "protoc-gen-go-grpc",
}
# A file of each Go package the client builds against, under GOCODE's src/. registry.go is in the
# APIv1 runtime from 1.4 on: with Debian's 1.3 the code protoc-gen-go 1.28 generates panics.
SOURCES = {
    "google.golang.org/grpc/version.go": "golang-google-grpc-dev",
    "google.golang.org/genproto/googleapis/rpc/errdetails/error_details.pb.go": "golang-google-genproto-dev",
    "google.golang.org/protobuf/proto/proto.go": "golang-google-protobuf-dev",
    "github.com/golang/protobuf/proto/registry.go": "golang-github-golang-protobuf-1-5-dev",
}


def missing(environ: Mapping[str, str]) -> list[str]:
    """The packages whose program is not on PATH or whose Go source is not in GOCODE."""
    src = Path(environ.get("GOCODE", GOCODE)) / "src"
    absent = [package for program, package in PROGRAMS.items() if shutil.which(program) is None]
    return absent + [package for source, package in SOURCES.items() if not (src / source).is_file()]


def ensure(environ: Mapping[str, str], notes: list[str]) -> list[str]:
    """Install what is missing when allowed (with a note saying so); the packages still missing."""
    absent = missing(environ)
    if absent and programs.can_install(environ):
        notes.append(f"the Go client's build needs Debian's {', '.join(absent)}; installing them.")
        programs.apt_install(absent)
        absent = missing(environ)
    return absent


def missing_hint(absent: list[str]) -> str:
    """What to tell someone who lacks `absent` and cannot have them installed here."""
    return (
        f"the Go client cannot be built: install Debian's {' '.join(absent)} "
        "(`apt-get install` them), or run `make setup` as root to have them installed."
    )


def required(environ: Mapping[str, str]) -> bool:
    """Whether the Go client must be built here: in CI (CI=true), where a missing toolchain fails."""
    return environ.get("CI", "").lower() in ("true", "1")


def main(environ: Mapping[str, str] = os.environ) -> int:
    """Find or install what the build needs; 1 when something is still missing in CI, else 0."""
    notes: list[str] = []
    absent = ensure(environ, notes)
    for note in notes:
        print(f"go_client: {note}")
    if absent:
        print(f"go_client: {missing_hint(absent)}", file=sys.stderr)
    return 1 if absent and required(environ) else 0


if __name__ == "__main__":
    sys.exit(main())
