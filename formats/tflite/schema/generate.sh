#!/bin/sh
# Regenerates ../internal/tfl (Go accessors) from schema.fbs with Debian's
# flatc (flatbuffers-compiler 2.0.8). Run from this directory, or through
# `go generate ./formats/tflite/...`.
#
# flatc 2.0.8 predates `(deprecated)` on enum values, union members and
# tables, which schema.fbs uses three times; those attributes are removed
# from a temporary copy (the enum values and union members keep their
# places, so every number stays as the schema defines it). The vendored
# schema.fbs itself is kept as upstream wrote it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e 's/^\(  [A-Z_0-9]* = [0-9]*\) (deprecated),/\1,/' \
    -e 's/^\(  [A-Za-z0-9]*Options\) (deprecated),/\1,/' \
    -e 's/^table \([A-Za-z0-9]*\) (deprecated) {/table \1 {/' \
    "$here/schema.fbs" > "$tmp/schema.fbs"
flatc --go --go-namespace tfl -o "$tmp/out" "$tmp/schema.fbs"
rm -rf "$here/../internal/tfl"
mkdir -p "$here/../internal/tfl"
cp "$tmp"/out/tfl/*.go "$here/../internal/tfl/"
gofmt -w "$here/../internal/tfl"
