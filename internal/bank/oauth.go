// OAuth, the bank's side: keys, refresh tokens and MFA.

package bank

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// allUserScopes is the default grant of an OAuth key: every user-level
// scope. Read-only: every key of the default grant holds it.
var allUserScopes = reference.Scopes()

func isUserScope(scope string) bool { return slices.Contains(allUserScopes, scope) }

type keyRecord struct {
	key         string
	userID      string
	fingerprint string
	scopes      []string
	expires     time.Time
}

// newKey mints an oauth_key with scopes, which it keeps and nobody writes
// (the default grant is allUserScopes itself). Callers hold mu.
func (st *Store) newKey(expires time.Time, userID, fingerprint string, scopes []string) *keyRecord {
	k := &keyRecord{
		key:         "oauth_" + st.secretHex(20),
		userID:      userID,
		fingerprint: fingerprint,
		scopes:      scopes,
		expires:     expires,
	}
	st.keys[k.key] = k
	st.keyExpiry.push(k.key, expires)
	return k
}

// sweepKeys forgets the keys that expired by now. Callers hold mu.
func (st *Store) sweepKeys(now time.Time) {
	for key, ok := st.keyExpiry.popDue(now); ok; key, ok = st.keyExpiry.popDue(now) {
		if k := st.keys[key]; k != nil && !now.Before(k.expires) {
			st.forgetKey(k)
		}
	}
}

// maxExpiredKeys bounds the expired keys the store remembers, so that the
// refusal of one can say when it expired.
const maxExpiredKeys = 64

// forgetKey deletes an expired key, remembering it. Callers hold mu.
func (st *Store) forgetKey(k *keyRecord) {
	delete(st.keys, k.key)
	if len(st.expiredKeys) == maxExpiredKeys {
		st.expiredKeys = slices.Delete(st.expiredKeys, 0, 1)
	}
	st.expiredKeys = append(st.expiredKeys, *k)
}

// maxRotatedTokens bounds the used-up refresh tokens the store remembers.
const maxRotatedTokens = 64

// rotatedToken is a refresh token the user's OAuth calls used up.
type rotatedToken struct{ token, userID string }

// rotateSpentToken replaces u's refresh token, used up, remembering it.
// Callers hold mu.
func (st *Store) rotateSpentToken(u *userRecord) {
	if len(st.rotatedTokens) == maxRotatedTokens {
		st.rotatedTokens = slices.Delete(st.rotatedTokens, 0, 1)
	}
	st.rotatedTokens = append(st.rotatedTokens, rotatedToken{u.refreshToken, u.id})
	st.rotateRefreshToken(u)
}

// errRefreshToken refuses a refresh_token that is not u's current one,
// saying so when it is one u's OAuth calls used up. Callers hold mu.
func (st *Store) errRefreshToken(u *userRecord, token string) *apierr.Error {
	// 409 / "400", not "110": SynapsePy answers this error by reading
	// the user's current refresh token (GET /users/:id) and retrying.
	err := apierr.Incorrect("invalid_refresh_token", "Invalid refresh_token.")
	if slices.Contains(st.rotatedTokens, rotatedToken{token, u.id}) {
		return errRotatedToken(err, u.id)
	}
	return err
}

// oauthResponse is the 200 answer of POST /oauth/:user_id.
type oauthResponse struct {
	ClientID         string   `json:"client_id"`
	ClientName       string   `json:"client_name"`
	ExpiresAt        string   `json:"expires_at"`
	ExpiresIn        string   `json:"expires_in"`
	OAuthKey         string   `json:"oauth_key"`
	RefreshExpiresIn int      `json:"refresh_expires_in"`
	RefreshToken     string   `json:"refresh_token"`
	Scope            []string `json:"scope"`
	UserID           string   `json:"user_id"`
}

// MFAChallenge is the 202 answer for an unregistered fingerprint.
type MFAChallenge struct {
	Error        errorBody     `json:"error"`
	ErrorCode    string        `json:"error_code"`
	HTTPCode     string        `json:"http_code"`
	PhoneNumbers []string      `json:"phone_numbers"`
	Success      bool          `json:"success"`
	Why          *apierr.Error `json:"-"` // for the test's log: the fingerprint not registered
}

// mfaSent is the 202 answer once the MFA code went to a chosen phone. It
// has no error key: SynapsePy raises on a 2xx body that carries one with
// error_code "10" (the official Go client, which reads error.en of every
// answer that is not a 200, fails on it instead).
type mfaSent struct {
	ErrorCode string    `json:"error_code"`
	HTTPCode  string    `json:"http_code"`
	Message   errorBody `json:"message"`
	Success   bool      `json:"success"`
}

// OAuthRequest is the body of POST /oauth/:user_id.
type OAuthRequest struct {
	RefreshToken  *string   `json:"refresh_token"`
	Scope         *[]string `json:"scope"`
	ValidationPin *string   `json:"validation_pin"`
	PhoneNumber   *string   `json:"phone_number"`
}

// Validate checks the body's payload rules: a refresh_token and known
// scopes.
func (r OAuthRequest) Validate() error {
	if r.RefreshToken == nil || *r.RefreshToken == "" {
		return apierr.Payload("missing_refresh_token", "refresh_token is required.")
	}
	if r.Scope != nil {
		for _, sc := range *r.Scope {
			if !isUserScope(sc) {
				return apierr.Payload("invalid_scope", "Unknown scope %q.", sc)
			}
		}
	}
	return nil
}

// ValidFingerprint is the fake's rule for a well-formed device fingerprint:
// 1 to 256 characters of letters, digits, '-', '_' and '.'.
func ValidFingerprint(fp string) bool {
	if fp == "" || utf8.RuneCountInString(fp) > 256 {
		return false
	}
	return strings.IndexFunc(fp, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) < 0
}

// oauthUser is the user of an OAuth route, /oauth/{user_id} and its
// login: an unknown user is 404, then a malformed fingerprint the spec's
// invalid-fingerprint answer. Callers hold mu.
func (st *Store) oauthUser(userID, fingerprint string) (*userRecord, error) {
	u := st.users[userID]
	if u == nil {
		return nil, errNoUser(userID)
	}
	if !ValidFingerprint(fingerprint) {
		return nil, ErrInvalidFingerprintFor(fingerprint)
	}
	return u, nil
}

// oauth performs POST /oauth/:user_id. It answers exactly one of: a key, an
// MFA challenge, an MFA-sent notice, or an error.
func (st *Store) oauth(now time.Time, lifetime time.Duration, userID, fingerprint string, req OAuthRequest) (any, int, error) {
	defer st.lock().unlock()
	u, err := st.oauthUser(userID, fingerprint)
	if err != nil {
		return nil, 0, err
	}
	if *req.RefreshToken != u.refreshToken {
		return nil, 0, st.errRefreshToken(u, *req.RefreshToken)
	}
	if u.locked() {
		return nil, 0, errUserLocked(u)
	}
	if !u.fingerprints[fingerprint] || u.forceMFA {
		switch {
		case req.ValidationPin != nil:
			if *req.ValidationPin != u.pin {
				return nil, 0, apierr.Incorrect("incorrect_validation_pin", "Validation pin is incorrect.")
			}
			u.fingerprints[fingerprint] = true
			u.forceMFA = false
			u.verifyPhone()
		case req.PhoneNumber != nil:
			if !slices.Contains(u.phones, *req.PhoneNumber) {
				return nil, 0, apierr.Incorrect("unknown_phone_number", "Phone number %q is not on file for this user.", *req.PhoneNumber)
			}
			u.pinSentTo = *req.PhoneNumber
			msg := errorBody{En: "MFA sent to " + *req.PhoneNumber + "."}
			return mfaSent{ErrorCode: "10", HTTPCode: "202", Success: true, Message: msg}, 202, nil
		default:
			why := fmt.Sprintf("the fingerprint %q is not registered for user %s", fingerprint, userID)
			if u.forceMFA {
				why = "ForceMFA asks user " + userID + " for MFA"
			}
			return MFAChallenge{ErrorCode: "10", HTTPCode: "202", PhoneNumbers: slices.Clone(u.phones),
				Error: errorBody{En: "Fingerprint not registered. Please perform the MFA flow."},
				Why: &apierr.Error{Status: 202, ErrorCode: "10", Reason: why,
					Hint: "register the device first (fake.OAuthKey(userID, fingerprint) or UserSeed.Fingerprint), or walk the MFA: phone_number, then validation_pin"}}, 202, nil
		}
	}
	scopes := allUserScopes
	if req.Scope != nil {
		scopes = slices.Clone(*req.Scope)
	}
	exp := now.Add(lifetime)
	k := st.newKey(exp, u.id, fingerprint, scopes)
	u.refreshUses--
	usesLeft := u.refreshUses
	if u.refreshUses <= 0 {
		// The spent token is replaced at once, and the answer carries the
		// new one: the official Go client stores refresh_token from this
		// answer and would otherwise keep a dead token.
		st.rotateSpentToken(u)
	}
	resp := oauthResponse{
		ClientID:         st.client.ID,
		ClientName:       st.client.Name,
		ExpiresAt:        strconv.FormatInt(exp.Unix(), 10),
		ExpiresIn:        strconv.FormatInt(int64(lifetime/time.Second), 10),
		OAuthKey:         k.key,
		RefreshExpiresIn: usesLeft,
		RefreshToken:     u.refreshToken,
		Scope:            slices.Clone(scopes),
		UserID:           u.id,
	}
	return resp, 200, nil
}

// lookupKey finds a live key and returns a copy. Unknown and expired keys are 401 / "110".
// locked is the refusal of a LOCKED, CLOSED or MAKE-IT-GO-AWAY user's key
// on the routes that do not act on the user itself; nil for another user's.
func (st *Store) lookupKey(key string, now time.Time) (k keyRecord, locked *apierr.Error, err error) {
	defer st.lock().unlock()
	rec := st.keys[key]
	if rec == nil {
		if i := slices.IndexFunc(st.expiredKeys, func(e keyRecord) bool { return e.key == key }); i >= 0 {
			return keyRecord{}, nil, errExpiredKey(st.expiredKeys[i].expires, now)
		}
		return keyRecord{}, nil, errUnknownKey(key)
	}
	if !now.Before(rec.expires) {
		st.forgetKey(rec)
		return keyRecord{}, nil, errExpiredKey(rec.expires, now)
	}
	if u := st.users[rec.userID]; u != nil && u.locked() {
		locked = errUserLocked(u)
	}
	return *rec, locked, nil
}

// LoginRequest is the body of POST /oauth/:user_id/login: one of the
// user's logins, its email and password.
type LoginRequest struct {
	Email    *string `json:"email"`
	Password *string `json:"password"`
}

// Validate checks the body's payload rules: an email and a password.
func (r LoginRequest) Validate() error {
	if r.Email == nil || *r.Email == "" {
		return apierr.Payload("missing_email", "email is required.")
	}
	if r.Password == nil || *r.Password == "" {
		return apierr.Payload("missing_password", "password is required.")
	}
	return nil
}

// loginResponse is the 200 answer of POST /oauth/:user_id/login, in the
// docs' shape ("Generate Refresh Token").
type loginResponse struct {
	ID           string   `json:"_id"`
	V            int      `json:"_v"`
	ChangeIn     int      `json:"change_in"`
	ClientID     string   `json:"client_id"`
	ClientName   string   `json:"client_name"`
	FPRegistered bool     `json:"fp_registered"`
	IsActive     bool     `json:"is_active"`
	RefreshToken string   `json:"refresh_token"`
	Scope        []string `json:"scope"`
	UserID       string   `json:"user_id"`
}

// loginDocVersion is the _v of the login answer, as the docs' sample
// shows it.
const loginDocVersion = 2

// setPassword keeps password as the login email's, when one is given.
// Callers hold mu.
func (u *userRecord) setPassword(email, password string) {
	if password == "" {
		return
	}
	if u.passwords == nil {
		u.passwords = map[string]string{}
	}
	u.passwords[email] = password
}

// login performs POST /oauth/:user_id/login: the user's current refresh
// token for one of its logins' email and password. It uses nothing up and
// changes nothing.
func (st *Store) login(userID, fingerprint string, req LoginRequest) (loginResponse, error) {
	defer st.lock().unlock()
	u, err := st.oauthUser(userID, fingerprint)
	if err != nil {
		return loginResponse{}, err
	}
	pw, ok := u.passwords[*req.Email]
	if !ok || pw != *req.Password || !slices.ContainsFunc(u.logins, func(l loginView) bool { return l.Email == *req.Email }) {
		why := fmt.Sprintf("the password does not match login %q of user %s", *req.Email, userID)
		if !ok {
			why = fmt.Sprintf("user %s has no login %q with a password", userID, *req.Email)
		}
		return loginResponse{}, apierr.Incorrect("invalid_username_password", "Invalid username/password.").Because("%s", why).
			Hinting("send the email and password of one of the user's logins, as POST /users or PATCH update.login gave them")
	}
	if u.locked() {
		return loginResponse{}, errUserLocked(u)
	}
	sum := sha256.Sum256([]byte("login|" + u.id))
	return loginResponse{
		ID:           hex.EncodeToString(sum[:12]),
		V:            loginDocVersion,
		ChangeIn:     u.refreshUses,
		ClientID:     st.client.ID,
		ClientName:   st.client.Name,
		FPRegistered: u.fingerprints[fingerprint],
		IsActive:     true,
		RefreshToken: u.refreshToken,
		Scope:        slices.Clone(allUserScopes),
		UserID:       u.id,
	}, nil
}
