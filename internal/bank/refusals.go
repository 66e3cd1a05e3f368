package bank

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// errNoUser refuses a user id this fake does not have.
func errNoUser(id string) *apierr.Error {
	return apierr.NotFound("user").Because("no user %s in this fake", id)
}

// errExpiredKey refuses an oauth_key that expired at expires, as of now.
func errExpiredKey(expires, now time.Time) *apierr.Error {
	return apierr.BadOAuthKey.Because("the oauth_key expired %s ago by the fake's clock (at %s)",
		now.Sub(expires), expires.UTC().Format(time.RFC3339)).
		Hinting("keys live WithOAuthKeyLifetime (7200s by default) of fake time, and Advance moves it; renew the key: %s", HintNewKey)
}

// errUnknownKey refuses an oauth_key this fake never issued.
func errUnknownKey(key string) *apierr.Error {
	return apierr.BadOAuthKey.Because("this fake never issued the oauth_key %s (or it expired long ago)", jsonx.Cut(key, 12)).
		Hinting("a key of another fake, or of an earlier test, is unknown here; %s", HintNewKey)
}

// errRotatedToken explains err, the refusal of a refresh token user
// userID's OAuth calls used up.
func errRotatedToken(err *apierr.Error, userID string) *apierr.Error {
	return err.Because("this refresh_token was user %s's until its %dth OAuth call used it up; that answer carried the new one", userID, refreshTokenUses).
		Hinting("%s", hintRotatedToken)
}

// ErrFingerprintFor explains a fingerprint that is not the key's.
func ErrFingerprintFor(header, keyFingerprint, sent string) *apierr.Error {
	if !strings.Contains(header, "|") {
		return apierr.Fingerprint.Because(`X-SP-USER has no "|": it is "<oauth_key>|<fingerprint>"`).Hinting(HintUserHeader)
	}
	return apierr.Fingerprint.Because("the oauth_key was issued to fingerprint %q; X-SP-USER sends %q", keyFingerprint, sent).
		Hinting(hintFingerprint)
}

// ErrInvalidFingerprintFor explains a fingerprint that is not well formed.
func ErrInvalidFingerprintFor(fp string) *apierr.Error {
	if fp == "" {
		return apierr.InvalidFingerprint.Because(`X-SP-USER carries no fingerprint after "|"`).Hinting(HintUserHeader)
	}
	return apierr.InvalidFingerprint.Because("the fingerprint %q is not 1 to 256 letters, digits, '-', '_' or '.'", jsonx.Cut(fp, 64)).Hinting(HintUserHeader)
}

// shortfall says why node n cannot pay amount: its available balance and the
// pending debits that make it short (at most three are named).
func (st *Store) shortfall(n *nodeRecord, amount Cents) string {
	var b strings.Builder
	fmt.Fprintf(&b, "node %s has %s USD available, %s USD short of this %s USD debit: balance %s",
		n.id, dollars(n.available()), dollars(amount-n.available()), dollars(amount), dollars(n.balance))
	if n.pending == 0 {
		b.WriteString(", no pending debits")
		return b.String()
	}
	fmt.Fprintf(&b, " less %s held by pending debits", dollars(n.pending))
	var named []string
	var sum Cents
	for _, id := range slices.Backward(n.txIDs) {
		t := st.txs[id]
		if t == nil || t.fromNode != n.id || !pendingDebit(t.status) {
			continue
		}
		sum += t.amount
		if len(named) < 3 {
			named = append(named, fmt.Sprintf("%s: %s, %s", t.id, dollars(t.amount), t.status))
		}
	}
	if len(named) > 0 {
		b.WriteString(" (" + strings.Join(named, "; "))
		if sum != n.pending {
			b.WriteString("; card holds")
		}
		b.WriteString(")")
	}
	return b.String()
}

// dollars writes c with its two decimals: 2000 is "20.00".
func dollars(c Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// The hints of the common mistakes, each said the same way wherever it
// applies (the wire's own, for the gateway, X-SP-USER-IP and idempotency
// keys, are in internal/api's diagnose.go).
const (
	HintUserHeader  = `send X-SP-USER: "<oauth_key>|<fingerprint>" ("|<fingerprint>" alone for POST /users and POST /oauth/{user_id})`
	HintNewKey      = `get a key from POST /oauth/{user_id} with the user's refresh_token, or fake.OAuthKey(userID, fingerprint)`
	hintFingerprint = `a key works only with the fingerprint it was issued to; to use another device, register it: fake.OAuthKey(userID, fingerprint), UserSeed.Fingerprint, or the MFA flow of POST /oauth/{user_id}`
	hintFunds       = `fund the node (fake.Fund, NodeSeed.BalanceCents), or let the pending debits settle or cancel them`
	// hintRotatedToken: docs/fidelity.md, "Users and OAuth".
	hintRotatedToken = `a refresh token is good for 10 OAuth calls and the 10th answer (refresh_expires_in 0) carries its successor: keep refresh_token from each POST /oauth/{user_id} answer, or read the current one from GET /users/{user_id} or fake.User(userID)'s RefreshToken`
)
