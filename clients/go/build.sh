#!/usr/bin/env bash
# Build the Go client: generate the Go code of every .proto in protos/ into build/src (a GOPATH,
# git-ignored, made afresh each time) and compile build/play in GOPATH mode against the Go packages
# of build/src and $GOCODE (Debian's golang-*-dev packages install theirs in /usr/share/gocode), so it
# builds offline from Debian's packages alone. No .proto names a go_package: the M options give each
# file its import path (its folder under protos/, e.g. boardgame/gateway/v1, package gatewayv1).
#
#   clients/go/build.sh && clients/go/build/play -gateway 127.0.0.1:50050
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
protos="$here/../../protos"
build="$here/build"
gocode="${GOCODE:-/usr/share/gocode}"

for program in go protoc protoc-gen-go protoc-gen-go-grpc; do
    if ! command -v "$program" >/dev/null 2>&1; then
        echo "build.sh: $program is not installed: run \`make setup\` as root, or install Debian's" \
            "golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev" \
            "golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev" >&2
        exit 1
    fi
done

mapfile -t files < <(cd "$protos" && find boardgame -name '*.proto' | LC_ALL=C sort)
mappings=""
for file in "${files[@]}"; do
    folder="$(dirname "$file")"
    mappings+=",M$file=$folder;$(basename "$(dirname "$folder")")$(basename "$folder")"
done

rm -rf "$build/src"
mkdir -p "$build/src"
protoc -I "$protos" \
    --go_out="$build/src" --go_opt="paths=import$mappings" \
    --go-grpc_out="$build/src" --go-grpc_opt="paths=import$mappings" \
    "${files[@]}"
if [ -z "${GOCACHE:-}${XDG_CACHE_HOME:-}${HOME:-}" ]; then
    export GOCACHE="$build/cache"  # go needs a build cache, by default under $HOME
fi
cd "$here"
GO111MODULE=off GOPATH="$build:$gocode" go build -o "$build/play" .
