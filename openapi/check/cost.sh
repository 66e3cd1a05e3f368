#!/usr/bin/env bash
# Prints what checking the fake's answers against the OpenAPI document
# costs the test suite: go test -count=1 ./... of the main module without
# recording and with it (SYNAPSEFAKE_EXCHANGES), alternately, ROUNDS times
# each (3 by default) after a warm-up that compiles every test binary, the
# median of each; then what the exchanges take on disk, and openapi/check's
# TestExchanges (the validator built once, every exchange checked). Extra
# arguments go to the go test runs (CI runs the suite with -race). From the
# repository root:
#
#	bash openapi/check/cost.sh [-race]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
rounds="${ROUNDS:-3}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

seconds() { local start=$SECONDS; "$@" >/dev/null; echo $((SECONDS - start)); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

go test -count=1 -run '^$' "$@" ./... >/dev/null
offs=() ons=()
for ((i = 0; i < rounds; i++)); do
	rm -rf "${dir:?}"/*
	offs+=("$(seconds go test -count=1 "$@" ./...)")
	ons+=("$(seconds env SYNAPSEFAKE_EXCHANGES="$dir" go test -count=1 "$@" ./...)")
done
off=$(printf '%s\n' "${offs[@]}" | median)
on=$(printf '%s\n' "${ons[@]}" | median)
(cd openapi/check && go test -count=1 -run '^$' . >/dev/null)
check=$(cd openapi/check && seconds env SYNAPSEFAKE_EXCHANGES="$dir" go test -count=1 -run '^TestExchanges$' .)
n=$(cat "$dir"/*.jsonl | wc -l)
size=$(du -sm "$dir" | cut -f1)
echo "go test -count=1 $* ./... ($rounds rounds each, alternately): without recording ${offs[*]} s (median ${off}), recording ${ons[*]} s (median ${on}); ${n} exchanges, ${size} MiB"
echo "openapi/check TestExchanges: ${check} s to check them, the validator built once"
