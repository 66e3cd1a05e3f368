#!/usr/bin/env bash
# Checks what scripts/release.sh built in OUTDIR: the six archives and
# SHA256SUMS; in each, the binary for its OS and architecture, static
# (CGO_ENABLED=0) and carrying the version, beside README.md, LICENSE and
# docs/; then runs the binary this machine can run (linux on its own
# architecture) through scripts/check-binary.sh. The Python wheels in
# OUTDIR/python, the npm packages in OUTDIR/npm and the gems in OUTDIR/gems
# each carry their target's binary, byte for byte (a gem is a tar archive
# whose data.tar.gz holds lib/synapsefake/bin/synapsefake[.exe]).
#
# Usage: scripts/check-release.sh OUTDIR
#
# The output is one line per check and a closing "N passed, M failed" line.
set -uo pipefail

if [[ $# -ne 1 ]]; then
	echo "usage: scripts/check-release.sh OUTDIR" >&2
	exit 2
fi
outdir="$(cd "$1" && pwd)"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# shellcheck source=check.sh
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# The version is in the archives' names: synapsefake_1.2.3_linux_amd64.tar.gz.
linux="$(cd "$outdir" && ls synapsefake_*_linux_amd64.tar.gz 2>/dev/null | head -n 1)"
if [[ -z "$linux" ]]; then
	echo "FAIL no synapsefake_*_linux_amd64.tar.gz in $outdir"
	echo "0 passed, 1 failed"
	exit 1
fi
v="${linux#synapsefake_}"
v="${v%_linux_amd64.tar.gz}"
version="v$v"

(cd "$outdir" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1
check "SHA256SUMS matches the archives" $?

unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
for platform in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
	goos="${platform%/*}"
	goarch="${platform#*/}"
	name="synapsefake_${v}_${goos}_${goarch}"
	exe=synapsefake
	if [[ "$goos" == windows ]]; then
		exe=synapsefake.exe
		archive="$name.zip"
		unzip -q "$outdir/$archive" -d "$unpacked" 2>/dev/null
	else
		archive="$name.tar.gz"
		tar -xzf "$outdir/$archive" -C "$unpacked" 2>/dev/null
	fi
	if [[ $? != 0 ]]; then
		check "$archive unpacks" 1
		continue
	fi
	listing="$(cd "$unpacked/$name" 2>/dev/null && find . -maxdepth 2 -type f | LC_ALL=C sort | tr '\n' ' ')"
	[[ -x "$unpacked/$name/$exe" && "$listing" == *"./LICENSE ./README.md"* && "$listing" == *"./docs/standalone.md"* ]]
	check "$archive holds $name/$exe, README.md, LICENSE and docs/" $? "$listing"
	info="$(go version -m "$unpacked/$name/$exe" 2>&1)"
	[[ "$info" == *"GOOS=$goos"* && "$info" == *"GOARCH=$goarch"* && "$info" == *"CGO_ENABLED=0"* ]] &&
		grep -qF "$version" "$unpacked/$name/$exe"
	check "$archive: a static $goos/$goarch binary of $version" $? "$info"
done

# The Python wheels, npm packages and gems: one per target, each carrying
# that target's binary, byte for byte the archive's.
for platform in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64; do
	goos="${platform%/*}"
	goarch="${platform#*/}"
	exe=synapsefake
	[[ "$goos" == windows ]] && exe=synapsefake.exe
	binary="$unpacked/synapsefake_${v}_${goos}_${goarch}/$exe"
	case "$platform" in
	linux/amd64) tag=manylinux_2_17_x86_64 npm=linux-x64 gem=x86_64-linux ;;
	linux/arm64) tag=manylinux_2_17_aarch64 npm=linux-arm64 gem=aarch64-linux ;;
	darwin/amd64) tag=macosx_10_12_x86_64 npm=darwin-x64 gem=x86_64-darwin ;;
	darwin/arm64) tag=macosx_11_0_arm64 npm=darwin-arm64 gem=arm64-darwin ;;
	windows/amd64) tag=win_amd64 npm=win32-x64 gem=x64-mingw-ucrt ;;
	windows/arm64) tag=win_arm64 npm=win32-arm64 gem=aarch64-mingw-ucrt ;;
	esac
	wheel="$(ls "$outdir"/python/synapsefake-*-py3-none-"$tag"*.whl 2>/dev/null | head -n 1)"
	[[ -n "$wheel" ]] && unzip -p "$wheel" "synapsefake/bin/$exe" 2>/dev/null | cmp -s - "$binary"
	check "the Python wheel for $platform ($tag) carries its binary" $? "${wheel:-no wheel}"
	pkg="$(ls "$outdir"/npm/synapsefake-"$npm"-*.tgz 2>/dev/null | head -n 1)"
	[[ -n "$pkg" ]] && tar -xzOf "$pkg" "package/bin/$exe" 2>/dev/null | cmp -s - "$binary"
	check "the npm package @synapsefake/$npm carries its binary" $? "${pkg:-no package}"
	gemfile="$(ls "$outdir"/gems/synapsefake-*-"$gem".gem 2>/dev/null | head -n 1)"
	[[ -n "$gemfile" ]] && tar -xOf "$gemfile" data.tar.gz 2>/dev/null | tar -xzOf - "lib/synapsefake/bin/$exe" 2>/dev/null |
		cmp -s - "$binary"
	check "the gem for $platform ($gem) carries its binary" $? "${gemfile:-no gem}"
done
# The plain gem: the seventh, with no binary inside.
plain=()
for g in "$outdir"/gems/synapsefake-*.gem; do
	case "$g" in
	*-x86_64-linux.gem | *-aarch64-linux.gem | *-x86_64-darwin.gem | *-arm64-darwin.gem | *-x64-mingw-ucrt.gem | *-aarch64-mingw-ucrt.gem) ;;
	*) [[ -e "$g" ]] && plain+=("$g") ;;
	esac
done
listing=""
[[ ${#plain[@]} == 1 ]] && listing="$(tar -xOf "${plain[0]}" data.tar.gz 2>/dev/null | tar -tzf - 2>/dev/null)"
[[ "$listing" == *lib/synapsefake.rb* && "$listing" != *lib/synapsefake/bin/* ]]
check "the plain gem is there, with no binary" $? "${plain[*]:-none}"
ls "$outdir"/python/synapsefake-*-py3-none-any.whl "$outdir"/npm/synapsefake-[0-9]*.tgz >/dev/null 2>&1
check "the pure Python wheel and the main npm package are there" $?

host="linux_$(go env GOHOSTARCH)"
if [[ "$(go env GOHOSTOS)" == linux && -d "$unpacked/synapsefake_${v}_$host" ]]; then
	echo "== the $host binary from its archive"
	if bash "$here/check-binary.sh" "$version" "$unpacked/synapsefake_${v}_$host/synapsefake"; then
		check "the $host binary runs" 0
	else
		check "the $host binary runs" 1
	fi
fi

echo "$passed passed, $failed failed"
[[ "$failed" == 0 ]]
