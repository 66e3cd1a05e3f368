#!/usr/bin/env bash
# door.sh: where step 4b (the bank's door, notes/issue-39-plan.md §3, §8) stands.
# For each layer above the bank it counts, in the root package's non-test files:
#   s.store.   direct uses of the store's fields and methods
#   closures   func(st *store ...) literals (run under the lock by a helper)
#   lock       lock()/unlock() calls (the door) outside bank files
# A file's layer is its prefix (bank_, api_, console_, root_) or its default
# below (the same lists as notes/tools/classify.go's fileLayer).
# Usage: bash notes/tools/door.sh [-v]   (-v lists the files)
set -euo pipefail
cd "$(dirname "$0")/../.."
bank="banklogin barcode cardlife cards clock digitalwallet dishonor disputes dummy encode events idempotency jit money nodes oauth returns schedule shipments state_check statemachine statements statements_pdf store subnets transactions users filter"
api="handlers_users chaos diagnose fastdecode faults handlers handlers_kyc handlers_nodes handlers_oauth handlers_platform handlers_reference handlers_reference2 handlers_ship handlers_subnets handlers_transactions journal recovery router strict webhooks errors contractrules subscriptions"
console="control control_reads origin platforms ui ui_detail world state"
root="check client doc fake fakeoption listen scenarios"
layer() {
	local f=${1%.go}
	case $f in bank_*) echo bank; return ;; api_*) echo api; return ;; console_*) echo console; return ;; root_*) echo root; return ;; esac
	for l in bank api console root; do
		for n in ${!l}; do [[ $n == "$f" ]] && { echo "$l"; return; }; done
	done
	echo unknown
}
verbose=${1:-}
declare -A files
for f in *.go; do
	[[ $f == *_test.go ]] && continue
	l=$(layer "$f")
	files[$l]+="$f "
done
if [[ -n ${files[unknown]:-} ]]; then echo "files of no known layer: ${files[unknown]}" >&2; fi
count() { # pattern files...
	local p=$1; shift
	[[ $# -eq 0 ]] && { echo 0; return; }
	{ grep -ohE "$p" "$@" 2>/dev/null || true; } | wc -l
}
list() {
	local p=$1; shift
	[[ $# -eq 0 ]] && return
	grep -cE "$p" "$@" 2>/dev/null | grep -v ':0$' | tr '\n' ' ' || true
}
pat_store='[A-Za-z_]+\.store\.'
pat_clos='func\([a-z]+ \*store\b'
pat_lock='\.(lock|unlock)\(\)'
printf '%-8s %9s %9s %6s\n' layer s.store. closures lock
total=0
for l in api console root; do
	# shellcheck disable=SC2086
	set -- ${files[$l]:-}
	a=$(count "$pat_store" "$@"); b=$(count "$pat_clos" "$@"); c=$(count "$pat_lock" "$@")
	printf '%-8s %9d %9d %6d\n' "$l" "$a" "$b" "$c"
	total=$((total + a + b + c))
	if [[ $verbose == -v ]]; then
		echo "  s.store.: $(list "$pat_store" "$@")"
		echo "  closures: $(list "$pat_clos" "$@")"
		echo "  lock:     $(list "$pat_lock" "$@")"
	fi
done
echo "total $total"
