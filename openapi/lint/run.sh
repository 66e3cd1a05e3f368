#!/usr/bin/env bash
# Lints openapi/v3.1.yaml with Redocly's OpenAPI 3.1 linter, its
# recommended rules with every warning an error (redocly.yaml). CI
# (.ci/run) calls it from the repository root:
#
#	npm ci --prefix openapi/lint
#	bash openapi/lint/run.sh
#
# openapi/check's TestDocumentLints checks the document against the
# OpenAPI 3.1 schema too, with libopenapi, where npm is not at hand.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -x "$here/node_modules/.bin/redocly" ]]; then
	echo "openapi/lint: @redocly/cli is not installed; run: npm ci --prefix openapi/lint" >&2
	exit 1
fi
"$here/node_modules/.bin/redocly" lint --config "$here/redocly.yaml" "$here/../v3.1.yaml"
