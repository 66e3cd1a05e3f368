#!/usr/bin/env bash
# apidoc.sh prints the root package's documentation, `go doc -all .`, with
# every alias expanded: each block `type X = pkg.X` (the line and its doc
# comment) is replaced by `go doc -all ./internal/pkg X` (the type, its doc,
# its fields and its methods, not the constants and funcs go doc lists with
# it: the root prints its own), with the
# qualifiers of the internal packages removed. Diffing its output from before and after a move
# of types into internal packages (issue 39) then shows only real API
# changes, not the types' new home. With no alias at the root it prints
# exactly `go doc -all .`.
#
# Usage, from anywhere in the module:
#
#	scripts/apidoc.sh > doc.before
#	... move the types, leaving `type X = pkg.X` at the root ...
#	scripts/apidoc.sh > doc.after
#	diff doc.before doc.after
#
# An alias of another package than ./internal/<pkg> (or of a generic type,
# or to a type of another name) is printed as `go doc` prints it.
set -euo pipefail
cd "$(dirname "$0")/.."

doc=$(mktemp)
trap 'rm -f "$doc"' EXIT
go doc -all . >"$doc"

awk '
# expand prints `go doc -all ./internal/PKG NAME` less its "package" line
# and the blank line after it, with "PKG." qualifiers removed.
function expand(pkg, name,    cmd, line, n, status, own, method) {
	cmd = "go doc -all ./internal/" pkg " " name
	n = 0
	while ((status = (cmd | getline line)) > 0) {
		if (++n <= 2) {
			continue
		}
		# Only the type and its methods: the constants, variables and
		# functions go doc lists with it belong to the internal package (the
		# root declares its own, printed where they are).
		# The methods are held back until the root has printed the
		# constants and functions it lists with the type, as go doc orders
		# them.
		if (line ~ /^(const|var) / || line ~ /^func [A-Za-z_]/) {
			own = 1
		} else if (line ~ /^type /) {
			own = 0
		} else if (line ~ /^func \(/) {
			own = 0
			method = 1
		}
		if (own) {
			continue
		}
		line = unqualify(unqualify(unqualify(line, "bank"), "api"), "console")
		if (method) {
			methods = methods line "\n"
		} else {
			print line
		}
	}
	if (status < 0 || close(cmd) != 0) {
		print "apidoc.sh: " cmd " failed" > "/dev/stderr"
		failed = 1
		exit 1
	}
}
function unqualify(s, pkg,    out, i) {
	out = ""
	while ((i = index(s, pkg ".")) > 0) {
		if (i == 1 || substr(s, i - 1, 1) !~ /[A-Za-z0-9_.]/) {
			out = out substr(s, 1, i - 1)
		} else {
			out = out substr(s, 1, i + length(pkg))
		}
		s = substr(s, i + length(pkg) + 1)
	}
	return out s
}
function flush() {
	if (methods != "") {
		printf "%s", methods
		methods = ""
	}
}
skipping && /^[^ \t]/ { skipping = 0 }
!skipping && (/^type / || /^[A-Z]+$/) { flush() }
skipping { next }
match($0, /^type [A-Za-z_][A-Za-z0-9_]* = [a-z_][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/) {
	flush()
	split($0, f, /[ .]/) # type X = pkg X
	if (f[2] == f[5] && system("test -d internal/" f[4]) == 0) {
		expand(f[4], f[2])
		skipping = 1
		next
	}
}
{ print }
END { flush(); if (failed) exit 1 }
' "$doc"
