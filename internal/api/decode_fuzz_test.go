package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// FuzzDecode feeds the JSON decoder edge cases (numbers as strings, huge
// numbers, deep nesting, duplicate keys, invalid UTF-8) into every request
// type: it must never panic, and every refusal is 400 / "200".
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"amount":{"amount":"12.5"}}`, `{"amount":{"amount":1e309}}`, `{"amount":{"amount":-0}}`,
		`{"a":1,"a":2}`, `{"to":{"id":"x","id":7}}`, "{\"extra\":{\"note\":\"\xff\"}}", `{"fees":[{"fee":null}]}`,
		strings.Repeat(`[`, 10000), strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat(`}`, 5000),
		`{"scope":"USER|GET"}`, `{"preferences":{"daily_cash_limit":1.005}}`, `{"process_on":9007199254740993}`,
		`{"transactions":[` + strings.Repeat(`{},`, 600) + `{}]}`, "\ufeff{}", `{"status":"ACTIVE"} x`,
	} {
		f.Add([]byte(s))
	}
	decoders := []func([]byte) error{
		decodeInto[bank.CreateTxRequest], decodeInto[bank.BatchRequest], decodeInto[bank.OAuthRequest], decodeInto[bank.CreateUserRequest],
		decodeInto[bank.PatchUserRequest], decodeInto[bank.CreateNodeRequest], decodeInto[bank.PatchNodeRequest],
		decodeInto[bank.CreateSubnetRequest], decodeInto[bank.PatchSubnetRequest], decodeInto[bank.PushRequest],
		decodeInto[bank.DummyRequest], decodeInto[bank.CommentRequest], decodeInto[createSubscriptionRequest],
		decodeInto[patchSubscriptionRequest],
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, dec := range decoders {
			if err := dec(data); err != nil {
				ae, ok := err.(*apierr.Error)
				if !ok || ae.Status != http.StatusBadRequest || ae.ErrorCode != "200" {
					t.Fatalf("refusal %v is not 400 / \"200\"", err)
				}
			}
		}
	})
}

// decodeInto decodes strictly and loosely, then validates, as a handler does.
func decodeInto[T any](data []byte) error {
	var v T
	if err := jsonx.UnmarshalObject(data, &v, true); err != nil {
		if err := jsonx.UnmarshalObject(data, &v, false); err != nil {
			return err
		}
	}
	if val, ok := any(v).(interface{ validate() error }); ok {
		if err := val.validate(); err != nil {
			if ae, ok := err.(*apierr.Error); ok && ae.ErrorCode != "200" {
				return nil // a well-formed value refused for its meaning (409), not a decoding error
			}
			return err
		}
	}
	return nil
}
