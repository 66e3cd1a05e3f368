package synapsefake

import (
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
	st := s.store
	st.mu.Lock()
	defer st.mu.Unlock()
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
			u := s.AddUser(UserSeed{Fingerprint: "fp"})
			for i, step := range tc.steps {
				s.Advance(step.advance)
				if step.reset {
					s.Reset()
					u = s.AddUser(UserSeed{Fingerprint: "fp"})
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
