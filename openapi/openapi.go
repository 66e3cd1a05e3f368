// Package openapi holds the OpenAPI 3.1 description of the v3.1 API the
// fake serves: v3.1.yaml is its source, v3.1.json the same document as
// JSON, which the fake serves at GET /_fake/openapi.json. openapi/check
// (a module of its own) keeps the JSON up to date with the YAML and
// validates the fake's answers against it.
package openapi

import (
	"bytes"
	_ "embed"
)

//go:embed v3.1.json
var document []byte

// JSON returns the document as JSON, a fresh copy on every call.
func JSON() []byte { return bytes.Clone(document) }
