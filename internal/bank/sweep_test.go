package bank

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// statusOf is the HTTP status the wire answers err with, 200 for nil.
func statusOf(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 200
	}
	var e *apierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("not an API error: %v", err)
	}
	return e.Status
}

// sweepState is what the store holds of idempotency keys and oauth keys.
type sweepState struct {
	Idem                   []string // the keys as sent, sorted
	Keys                   int      // oauth keys
	IdemQueued, KeysQueued int      // entries waiting in the expiry queues
}

func sweepStateOf(s *Bank) sweepState {
	st := s.store
	st.lock()
	defer st.unlock()
	out := sweepState{Keys: len(st.keys), IdemQueued: st.idemExpiry.len(), KeysQueued: st.keyExpiry.len()}
	for k := range st.idem {
		raw := k[strings.LastIndexByte(k, 0)+1:]
		out.Idem = append(out.Idem, raw)
	}
	slices.Sort(out.Idem)
	return out
}

// takeIdem is POST /oauth with idempotency key key, as the wire serves it
// (WithIdempotency, then handleOAuth): a key still in use answers 409;
// otherwise it mints an oauth key and takes key when it answers 200. It
// returns the status.
func takeIdem(t *testing.T, s *Bank, u User, key string) int {
	t.Helper()
	idem := IdemKey(s.store.client.ID, "POST /v3.1/oauth/"+u.ID, key)
	if _, used := s.IdemUsedAt(idem, s.Now()); used {
		return 409 // the route's authorize: 409 / "450"
	}
	refresh := u.RefreshToken
	_, status, err := s.GrantOAuth(s.Now(), s.Cfg.KeyLifetime, u.ID, "fp", OAuthRequest{RefreshToken: &refresh})
	if err != nil {
		status = statusOf(t, err)
	}
	if status == 200 {
		s.UseIdem(idem, s.Now())
	}
	return status
}

func TestSweepExpiredKeys(t *testing.T) {
	t.Parallel()
	const keyLifetime = 2 * time.Hour
	// sweepStep moves the clock, then resets the server or sends POST
	// /oauth with an idempotency key, then checks the store without any
	// further request.
	type sweepStep struct {
		advance    time.Duration
		reset      bool
		take       string // idempotency key of a POST /oauth, "" for none
		wantStatus int
		want       sweepState
	}
	for _, tc := range []struct {
		name  string
		steps []sweepStep
		// ignoreQueues: whether Reset empties the queues is not the point.
		ignoreQueues bool
	}{
		{"expired keys are forgotten without a lookup", []sweepStep{
			{take: "k", wantStatus: 200, want: sweepState{Idem: []string{"k"}, Keys: 1, IdemQueued: 1, KeysQueued: 1}},
			{advance: idempotencyLifetime, want: sweepState{}},
		}, false},
		{"keys within their lifetime stay", []sweepStep{
			{take: "old", wantStatus: 200, want: sweepState{Idem: []string{"old"}, Keys: 1, IdemQueued: 1, KeysQueued: 1}},
			{advance: time.Hour, take: "young", wantStatus: 200, want: sweepState{Idem: []string{"old", "young"}, Keys: 2, IdemQueued: 2, KeysQueued: 2}},
			{advance: time.Hour - time.Millisecond, want: sweepState{Idem: []string{"old", "young"}, Keys: 2, IdemQueued: 2, KeysQueued: 2}},
			{advance: time.Millisecond, want: sweepState{Idem: []string{"old", "young"}, Keys: 1, IdemQueued: 2, KeysQueued: 1}},
			{advance: idempotencyLifetime - keyLifetime, want: sweepState{Idem: []string{"young"}, IdemQueued: 1}},
			{advance: time.Hour, want: sweepState{}},
		}, false},
		{"a key reused within its lifetime is refused, then free", []sweepStep{
			{take: "k", wantStatus: 200, want: sweepState{Idem: []string{"k"}, Keys: 1, IdemQueued: 1, KeysQueued: 1}},
			{advance: idempotencyLifetime - time.Millisecond, take: "k", wantStatus: 409, want: sweepState{Idem: []string{"k"}, IdemQueued: 1}},
			{advance: time.Millisecond, want: sweepState{}},
			{take: "k", wantStatus: 200, want: sweepState{Idem: []string{"k"}, Keys: 1, IdemQueued: 1, KeysQueued: 1}},
		}, false},
		{"a key taken again after a reset outlives its first use", []sweepStep{
			{take: "k", wantStatus: 200, want: sweepState{Idem: []string{"k"}, Keys: 1}},
			{reset: true, want: sweepState{}},
			{advance: time.Hour, take: "k", wantStatus: 200, want: sweepState{Idem: []string{"k"}, Keys: 1}},
			{advance: idempotencyLifetime - time.Hour, take: "k", wantStatus: 409, want: sweepState{Idem: []string{"k"}}},
			{advance: time.Hour, want: sweepState{}},
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestBank(testBankOptions{keyLifetime: keyLifetime})
			u := mustAddUser(t, s, UserSeed{Fingerprint: "fp"})
			for i, step := range tc.steps {
				advance(s, step.advance)
				if step.reset {
					s.ResetBank(func() {}) // the wire's Reset, for the bank
					u = mustAddUser(t, s, UserSeed{Fingerprint: "fp"})
				}
				if step.take != "" {
					if got := takeIdem(t, s, u, step.take); got != step.wantStatus {
						t.Fatalf("step %d: POST /oauth with key %q: status %d, want %d", i, step.take, got, step.wantStatus)
					}
				}
				var opts []cmp.Option
				if tc.ignoreQueues {
					opts = append(opts, cmpopts.IgnoreFields(sweepState{}, "IdemQueued", "KeysQueued"))
				}
				if diff := cmp.Diff(step.want, sweepStateOf(s), opts...); diff != "" {
					t.Errorf("step %d: store (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

// bankLoginCall is POST /users/{id}/nodes with body as user u's key, as
// the wire's handler serves it: an answer to the bank's question when the
// body has an access_token, a bank login otherwise. It returns the status
// and the MFA access_token of a 202.
func bankLoginCall(t *testing.T, s *Bank, u User, key, body string) (int, string) {
	t.Helper()
	if g, _, err := s.LookupKey(key, s.Now()); err != nil || g.UserID != u.ID {
		t.Fatalf("the key does not open user %s: %v", u.ID, err)
	}
	var req CreateNodeRequest
	if err := jsonx.UnmarshalObject([]byte(body), &req, false); err != nil {
		t.Fatal(err)
	}
	var ans BankLoginAnswer
	var err error
	if req.AccessToken != nil {
		ans, err = s.AnswerBankMFA(s.Now(), u.ID, *req.AccessToken, *req.MFAAnswer)
	} else {
		ans, err = s.BankLogin(s.Now(), u.ID, *req.Info.BankID, *req.Info.BankPW, *req.Info.BankName)
	}
	status := statusOf(t, err)
	var e *apierr.Error
	if status == 409 && errors.As(err, &e) && e.Code != "invalid_access_token" {
		t.Fatalf("409 %q, want invalid_access_token", e.Code)
	}
	if err == nil && ans.Mfa != nil {
		return 202, ans.Mfa.MFA.AccessToken
	}
	return status, ""
}

// TestSweepBankLogins: a bank's question left unanswered is forgotten
// bankLoginLifetime after it was asked, by the clock alone; its token then
// answers as a spent one (409 / "400" invalid_access_token).
func TestSweepBankLogins(t *testing.T) {
	t.Parallel()
	s := newTestBank(testBankOptions{})
	u := mustAddUser(t, s, UserSeed{Fingerprint: "fp"})
	key := s.OAuthKey(u.ID, "fp")
	login := `{"type":"ACH-US","info":{"bank_id":"synapse_good","bank_pw":"test1234","bank_name":"fake"}}`
	answer := func(token, a string) (int, string) {
		return bankLoginCall(t, s, u, key, `{"access_token":"`+token+`","mfa_answer":"`+a+`"}`)
	}
	type state struct{ Logins, Queued int }
	stateOf := func() state {
		s.store.lock()
		defer s.store.unlock()
		return state{len(s.store.bankLogins), s.store.bankLoginExpiry.len()}
	}
	check := func(step string, want state) {
		t.Helper()
		if got := stateOf(); got != want {
			t.Errorf("%s: store holds %+v, want %+v", step, got, want)
		}
	}
	_, first := bankLoginCall(t, s, u, key, login)
	advance(s, 5*time.Minute)
	_, second := bankLoginCall(t, s, u, key, login)
	check("two questions asked", state{2, 2})

	advance(s, bankLoginLifetime-5*time.Minute-time.Millisecond)
	check("the first one's last millisecond", state{2, 2})
	status, again := answer(first, "again")
	if status != 202 || again == "" {
		t.Fatalf("answer again in the first one's lifetime: status %d, want 202 with a new token", status)
	}
	check("asked again", state{2, 3})

	advance(s, time.Millisecond)
	check("the first token's time passed, spent already", state{2, 2})
	advance(s, 5*time.Minute)
	check("the second question expired", state{1, 1})
	if status, _ := answer(second, "test_answer"); status != 409 {
		t.Errorf("the expired second token: status %d, want 409", status)
	}

	advance(s, bankLoginLifetime)
	check("every question expired", state{0, 0})
	if status, _ := answer(again, "test_answer"); status != 409 {
		t.Errorf("the expired token asked again: status %d, want 409", status)
	}
	if got, _ := s.User(u.ID); len(got.NodeIDs) != 0 {
		t.Errorf("nodes linked: %v, want none", got.NodeIDs)
	}
}
