#!/usr/bin/env bash
# Builds the release archives of the standalone fake: cmd/synapsefake for
# linux, macOS (darwin) and Windows on amd64 and arm64, static
# (CGO_ENABLED=0), with -version printing VERSION. Each archive holds one
# directory, synapsefake_VERSION_OS_ARCH/, with the binary (synapsefake.exe
# on Windows), README.md, LICENSE and docs/; tar.gz, or zip for Windows.
# OUTDIR also gets SHA256SUMS (of the archives), python/ (the Python
# package's wheel for each target, carrying its binary, its pure wheel and
# sdist: clients/python/make_wheels.py) and npm/ (the npm packages
# @synapsefake/<os>-<arch>, each carrying its binary, and synapsefake, which
# names them as optional dependencies: clients/node/scripts/make-packages.js)
# and gems/ (the Ruby gem synapsefake: one platform gem per target,
# synapsefake-VERSION-x86_64-linux.gem and the like, each carrying its
# binary, and the plain synapsefake-VERSION.gem: clients/ruby/make_gems.rb).
#
# Usage: scripts/release.sh VERSION OUTDIR
#
#   VERSION  a tag such as v1.2.3, or "snapshot": v0.0.0-snapshot.COMMIT,
#            what CI (.ci/run) builds and checks on every run
#   OUTDIR   made if missing; archives of the same names are replaced
#
# Needs go, tar, gzip, zip, python3, node, npm and ruby. The archives are reproducible: the same
# commit and Go version give the same bytes (entries sorted, owned by 0,
# dated at the commit's time). GOOS/GOARCH pairs: RELEASE_PLATFORMS, e.g.
# RELEASE_PLATFORMS="linux/amd64 windows/arm64" for a quicker local run.
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: scripts/release.sh VERSION OUTDIR   (VERSION: v1.2.3 or snapshot)" >&2
	exit 2
fi
version="$1"
outdir="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true)"
if [[ "$version" == snapshot ]]; then
	version="v0.0.0-snapshot${commit:+.$commit}"
fi
if [[ ! "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release: VERSION must look like v1.2.3 or v1.2.3-rc.1 (or be snapshot), not \"$version\"" >&2
	exit 2
fi
# The commit's time dates every entry (0 outside a git checkout).
epoch="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}"
platforms="${RELEASE_PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}"

mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

archives=()
binaries=() # goos/goarch=path of each binary, for the Python wheels, npm packages and gems
for platform in $platforms; do
	goos="${platform%/*}"
	goarch="${platform#*/}"
	name="synapsefake_${version#v}_${goos}_${goarch}"
	dir="$stage/$name"
	exe=synapsefake
	[[ "$goos" == windows ]] && exe=synapsefake.exe
	mkdir -p "$dir/docs"
	(cd "$root" && CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch" \
		go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$dir/$exe" ./cmd/synapsefake)
	binaries+=("$platform=$dir/$exe")
	cp "$root/README.md" "$root/LICENSE" "$dir/"
	cp "$root"/docs/*.md "$root"/docs/*.png "$dir/docs/"
	find "$dir" -exec touch -h -d "@$epoch" {} +
	if [[ "$goos" == windows ]]; then
		archive="$name.zip"
		rm -f "$outdir/$archive"
		(cd "$stage" && find "$name" -print | LC_ALL=C sort | zip -q -X -@ "$outdir/$archive")
	else
		archive="$name.tar.gz"
		tar -C "$stage" --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
			-cf - "$name" | gzip -n -9 >"$outdir/$archive"
	fi
	archives+=("$archive")
	printf 'release: %-48s %8d bytes\n' "$archive" "$(wc -c <"$outdir/$archive")"
done
(cd "$outdir" && sha256sum "${archives[@]}" >SHA256SUMS)
# The Python package's platform wheels (each carrying its binary), its pure
# wheel and sdist, in python/; they are not archives of SHA256SUMS.
python3 "$root/clients/python/make_wheels.py" --pure --sdist --epoch "$epoch" "$version" "$outdir/python" "${binaries[@]}"
# The npm packages: @synapsefake/<os>-<arch> (each carrying its binary) and
# synapsefake, which names them as optional dependencies, packed in npm/.
node "$root/clients/node/scripts/make-packages.js" "$version" "$outdir/npm" "${binaries[@]}"
# The gems: synapsefake-VERSION-PLATFORM.gem (each carrying its binary) and
# the plain synapsefake-VERSION.gem, in gems/.
ruby "$root/clients/ruby/make_gems.rb" --plain --epoch "$epoch" "$version" "$outdir/gems" "${binaries[@]}"
echo "release: $version, ${#archives[@]} archives and SHA256SUMS in $outdir"
