package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// UnmarshalObject decodes a JSON object, a request body or one of its
// elements, into v; a body that is no object, nests deeper than MaxDepth,
// is malformed or has a field of another type is refused as a bad payload
// (apierr.Payload: invalid_json, invalid_field_type, unknown_field). strict refuses
// the fields v does not have: only the control API is strict, the API
// itself ignores them.
func UnmarshalObject(data []byte, v any, strict bool) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return apierr.Payload("invalid_json", "Request body must be a JSON object.")
	}
	if err := checkDepth(trimmed); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if field == "" {
				field = "body"
			}
			return apierr.Payload("invalid_field_type", "%s must be of type %s, got %s.", field, jsonTypeName(te.Type.String()), te.Value)
		}
		if strings.HasPrefix(err.Error(), "json: unknown field") {
			return apierr.Payload("unknown_field", "Unknown field %s.", strings.TrimPrefix(err.Error(), "json: unknown field "))
		}
		return apierr.Payload("invalid_json", "Malformed JSON: %v.", err)
	}
	if dec.More() {
		return apierr.Payload("invalid_json", "Malformed JSON: data after the object.")
	}
	return nil
}

// MaxDepth is how deeply a request body's arrays and objects may nest.
// Free-form fields (a node's extra.other, a dispute's dispute_meta) are
// stored as sent and written into the saved state a few levels deeper,
// which encoding/json reads back only to a depth of 10,000: a body near that
// depth would be taken, and its state refused by Restore.
const MaxDepth = 100

// checkDepth refuses JSON whose arrays and objects nest deeper than
// MaxDepth (400 / "200" invalid_json).
func checkDepth(data []byte) error {
	if DeeperThan(data, MaxDepth) {
		return apierr.Payload("invalid_json", "Malformed JSON: arrays and objects nest deeper than %d levels.", MaxDepth)
	}
	return nil
}

// DeeperThan reports whether JSON's arrays and objects nest deeper than
// limit. It counts brackets outside strings and leaves every other fault
// to the decoder.
func DeeperThan(data []byte, limit int) bool {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			if depth++; depth > limit {
				return true
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return false
}

// jsonTypeName is the JSON type a refusal names for a Go type.
func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "string"):
		return "string"
	case strings.Contains(goType, "bool"):
		return "boolean"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "number"
	case strings.Contains(goType, "[]"):
		return "array"
	default:
		return "object"
	}
}
