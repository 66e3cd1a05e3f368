# Shared by the scripts/check-*.sh checkers (source it): check NAME OK(0/1)
# [DETAIL] prints one "ok" or "FAIL" line and counts it in passed or
# failed, for the script's closing "N passed, M failed" line.
passed=0
failed=0
check() { # check NAME OK(0/1) [DETAIL]
	if [[ "$2" == 0 ]]; then
		passed=$((passed + 1))
		echo "ok   $1"
	else
		failed=$((failed + 1))
		echo "FAIL $1${3:+: $3}"
	fi
}
