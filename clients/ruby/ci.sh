#!/usr/bin/env bash
# CI of the Ruby gem (clients/ruby), from any directory:
#
#   bash clients/ruby/ci.sh
#
#  1. builds cmd/synapsefake for linux/amd64;
#  2. makes the gems with make_gems.rb (the x86_64-linux platform gem, which
#     carries that binary, and the plain gem), version
#     v0.0.0-snapshot.COMMIT (0.0.1.snapshot.COMMIT);
#  3. installs the platform gem into a fresh GEM_HOME from the local file
#     (gem install --local: no registry), beside Debian's rspec and minitest;
#  4. runs the gem's own tests (clients/ruby/test: the binary search, start,
#     every control call, the helpers' isolation and failure report, the
#     parallel runs, make_gems.rb and every Ruby block of docs/ruby.md) from
#     the checkout with SYNAPSEFAKE_BIN set to the binary built in 1;
#  5. runs both example suites (examples/rspec with rspec, examples/minitest
#     with ruby) from the installed gem WITHOUT SYNAPSEFAKE_BIN and with no
#     synapsefake on PATH, so the binary must come from inside the gem: each
#     prints where its binary came from, the start-up figures and the median
#     cost of a platform; then the RSpec suite under parallel_rspec -n 2,
#     each worker with a binary of its own.
#
# Needs go and Debian's ruby (3.1), ruby-rspec, ruby-minitest and
# ruby-parallel-tests (no gem registry is reachable from CI):
#
#	apt-get install ruby ruby-rspec ruby-minitest ruby-parallel-tests
#	bash clients/ruby/ci.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
unset SYNAPSEFAKE_BIN SYNAPSEFAKE_URL TEST_ENV_NUMBER RUBYOPT RUBYLIB GEM_HOME GEM_PATH

step() { printf '\n--> clients/ruby: %s\n' "$*"; }
fail() { echo "clients/ruby/ci.sh: $*" >&2; exit 1; }

step "prerequisites"
command -v ruby >/dev/null || fail "ruby is not on PATH; run: apt-get install ruby ruby-rspec ruby-minitest ruby-parallel-tests"
command -v go >/dev/null || fail "go is not on PATH"
for cmd in rspec parallel_rspec; do
	command -v "$cmd" >/dev/null || fail "$cmd is not on PATH; run: apt-get install ruby-rspec ruby-parallel-tests"
done
ruby -e 'require "minitest"; require "rspec/core"; require "parallel_tests"
puts "ruby #{RUBY_VERSION}, rspec-core #{RSpec::Core::Version::STRING}, minitest #{Minitest::VERSION}, parallel_tests #{ParallelTests::VERSION}"'

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

step "go build linux/amd64 cmd/synapsefake"
commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
version="v0.0.0-snapshot.$commit"
(cd "$root" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 \
	go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$tmp/bin/synapsefake" ./cmd/synapsefake)
"$tmp/bin/synapsefake" -version

step "make_gems.rb $version (the x86_64-linux gem, the plain gem)"
ruby "$here/make_gems.rb" --plain "$version" "$tmp/gems" "linux/amd64=$tmp/bin/synapsefake"
gem_version="0.0.1.snapshot.$commit"
gemfile="$tmp/gems/synapsefake-$gem_version-x86_64-linux.gem"

step "a fresh GEM_HOME with the platform gem (gem install --local)"
system_path="$(ruby -e 'print Gem.default_path.join(":")')"
export GEM_HOME="$tmp/gem-home" GEM_PATH="$tmp/gem-home:$system_path"
gem install --local --no-document --install-dir "$GEM_HOME" "$gemfile"
packaged="$GEM_HOME/gems/synapsefake-$gem_version-x86_64-linux/lib/synapsefake/bin/synapsefake"
cmp "$packaged" "$tmp/bin/synapsefake" || fail "the installed gem's binary is not the one built"

# No synapsefake on PATH from here on, and no SYNAPSEFAKE_BIN: the gem's binary must be the one found.
clean_path=""
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
	[[ -z "$d" || -e "$d/synapsefake" ]] && continue
	clean_path="${clean_path:+$clean_path:}$d"
done
installed() { env PATH="$clean_path" "$@"; }
installed ruby -e 'require "synapsefake"; b = Synapsefake.find_binary; abort "found #{b.to_a}" unless b.source == :gem; puts "the gem finds #{b.path}"'

step "the gem's own tests (clients/ruby/test), from the checkout"
(cd "$here" && env -u GEM_HOME -u GEM_PATH SYNAPSEFAKE_BIN="$tmp/bin/synapsefake" \
	ruby -Ilib -Itest -e 'Dir.glob("test/*_test.rb").sort.each { |f| require_relative f }')

cp -R "$here/examples" "$tmp/examples"
check_summary() {
	local log="$1" what="$2"
	grep -q "^synapsefake.*: binary $packaged (inside the synapsefake gem): spawn to banner" "$log" ||
		fail "$what did not run the gem's binary ($packaged)"
}

step "examples/rspec (rspec), the binary from inside the gem"
(cd "$tmp/examples/rspec" && installed rspec) | tee "$tmp/rspec.log"
check_summary "$tmp/rspec.log" "examples/rspec"

step "examples/minitest (ruby), the binary from inside the gem"
(cd "$tmp/examples/minitest" && installed ruby -Itest -e 'Dir.glob("test/**/*_test.rb").sort.each { |f| require_relative f }') |
	tee "$tmp/minitest.log"
check_summary "$tmp/minitest.log" "examples/minitest"

step "examples/rspec under parallel_rspec -n 2: a binary per worker"
(cd "$tmp/examples/rspec" && installed parallel_rspec -n 2 spec) | tee "$tmp/parallel.log"
for w in 1 2; do
	grep -q "^synapsefake (worker $w): binary $packaged (inside the synapsefake gem)" "$tmp/parallel.log" ||
		fail "no binary of worker $w in the summary"
done

step "the figures"
grep -h "^synapsefake.*: \(binary\|fresh platform\)" "$tmp/rspec.log" "$tmp/minitest.log" "$tmp/parallel.log" |
	sed "s|$GEM_HOME|\$GEM_HOME|"
