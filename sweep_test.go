package synapsefake

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sweepState is what the store holds of idempotency keys and oauth keys.
type sweepState struct {
	Idem                   []string // the keys as sent, sorted
	Keys                   int      // oauth keys
	IdemQueued, KeysQueued int      // entries waiting in the expiry queues
}

func sweepStateOf(s *Server) sweepState {
	st := s.core.store
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

// takeIdem sends POST /oauth with idempotency key key, which mints an oauth
// key and takes key when it answers 200, and returns the status.
func takeIdem(t *testing.T, s *Server, u User, key string) int {
	t.Helper()
	req, err := http.NewRequest("POST", s.URL()+"/oauth/"+u.ID, strings.NewReader(`{"refresh_token":"`+u.RefreshToken+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SP-GATEWAY", s.Gateway())
	req.Header.Set("X-SP-USER", "|fp")
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	req.Header.Set("X-SP-IDEMPOTENCY-KEY", key)
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
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
			s := New(WithOAuthKeyLifetime(keyLifetime))
			u := s.MustAddUser(t, UserSeed{Fingerprint: "fp"})
			for i, step := range tc.steps {
				s.core.Advance(step.advance)
				if step.reset {
					s.core.Reset()
					u = s.MustAddUser(t, UserSeed{Fingerprint: "fp"})
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

// bankLoginCall sends POST /users/{id}/nodes with body as user u's key
// and returns the status and the MFA access_token of a 202.
func bankLoginCall(t *testing.T, s *Server, u User, key, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", s.URL()+"/users/"+u.ID+"/nodes", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-SP-GATEWAY", s.Gateway())
	req.Header.Set("X-SP-USER", key+"|fp")
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans struct {
		MFA struct {
			AccessToken string `json:"access_token"`
		} `json:"mfa"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode == http.StatusConflict && ans.Error.Code != "invalid_access_token" {
		t.Fatalf("409 %q, want invalid_access_token", ans.Error.Code)
	}
	return resp.StatusCode, ans.MFA.AccessToken
}

// TestSweepBankLogins: a bank's question left unanswered is forgotten
// bankLoginLifetime after it was asked, by the clock alone; its token then
// answers as a spent one (409 / "400" invalid_access_token).
func TestSweepBankLogins(t *testing.T) {
	t.Parallel()
	s := New()
	u := s.MustAddUser(t, UserSeed{Fingerprint: "fp"})
	key := s.core.OAuthKey(u.ID, "fp")
	login := `{"type":"ACH-US","info":{"bank_id":"synapse_good","bank_pw":"test1234","bank_name":"fake"}}`
	answer := func(token, a string) (int, string) {
		return bankLoginCall(t, s, u, key, `{"access_token":"`+token+`","mfa_answer":"`+a+`"}`)
	}
	type state struct{ Logins, Queued int }
	stateOf := func() state {
		s.core.store.lock()
		defer s.core.store.unlock()
		return state{len(s.core.store.bankLogins), s.core.store.bankLoginExpiry.len()}
	}
	check := func(step string, want state) {
		t.Helper()
		if got := stateOf(); got != want {
			t.Errorf("%s: store holds %+v, want %+v", step, got, want)
		}
	}
	_, first := bankLoginCall(t, s, u, key, login)
	s.core.Advance(5 * time.Minute)
	_, second := bankLoginCall(t, s, u, key, login)
	check("two questions asked", state{2, 2})

	s.core.Advance(bankLoginLifetime - 5*time.Minute - time.Millisecond)
	check("the first one's last millisecond", state{2, 2})
	status, again := answer(first, "again")
	if status != http.StatusAccepted || again == "" {
		t.Fatalf("answer again in the first one's lifetime: status %d, want 202 with a new token", status)
	}
	check("asked again", state{2, 3})

	s.core.Advance(time.Millisecond)
	check("the first token's time passed, spent already", state{2, 2})
	s.core.Advance(5 * time.Minute)
	check("the second question expired", state{1, 1})
	if status, _ := answer(second, "test_answer"); status != http.StatusConflict {
		t.Errorf("the expired second token: status %d, want 409", status)
	}

	s.core.Advance(bankLoginLifetime)
	check("every question expired", state{0, 0})
	if status, _ := answer(again, "test_answer"); status != http.StatusConflict {
		t.Errorf("the expired token asked again: status %d, want 409", status)
	}
	if got, _ := s.core.User(u.ID); len(got.NodeIDs) != 0 {
		t.Errorf("nodes linked: %v, want none", got.NodeIDs)
	}
}
