#!/usr/bin/env bash
# Issue 39 step 2: splits the root's mixed files in place, still one
# package: every declaration whose layer is not its file's moves, with its
# doc comment, to LAYER_FILE.go (classify.go decides, genmoves.py writes
# the moves, mvdecl.go makes them), then goimports fixes the imports.
# Run from the repository's root; replayable after a rebase.
set -euo pipefail
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
go build -o "$tools/mvdecl" notes/tools/mvdecl.go
go build -o "$tools/classify" notes/tools/classify.go
"$tools/classify" . | python3 notes/tools/genmoves.py | sed "s|^mvdecl|$tools/mvdecl|" | bash
goimports -w $(git status --short -- '*.go' | awk '{print $NF}')
