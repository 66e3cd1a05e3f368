package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
)

// chaosRun is what one subscription's receiver got and what the fake
// logged, after a transfer was created and settled under chaos.
type chaosRun struct {
	got      []string // "<status> <signature ok|bad>", in the order received
	attempts []string // every logged attempt, "<status> <code> <chaos>", oldest first
}

// runChaos subscribes a receiver to TRAN|PATCH, settles a new transfer (three
// TRAN|PATCH events: PROCESSING-DEBIT, PROCESSING-CREDIT, SETTLED),
// then advances the clock by each of advances. The receiver answers 401 to
// a bad signature, 200 otherwise.
func runChaos(t *testing.T, opts []synapsefake.Option, chaos synapsefake.WebhookChaos, advances ...time.Duration) chaosRun {
	t.Helper()
	e := newHookEnv(t, append([]synapsefake.Option{synapsefake.WithManualProcessing()}, opts...)...)
	fake := e.fake
	rcv := testkit.NewHookReceiver(t, func(_ int, d testkit.HookDelivery) (int, string) {
		if !synapsefake.VerifySignature(d.Header, d.ObjectID(), fake.ClientID(), fake.ClientSecret()) {
			return http.StatusUnauthorized, "bad signature"
		}
		return http.StatusOK, "ok"
	})
	sub := fake.MustAddSubscription(t, rcv.Url, "TRAN|PATCH")
	if chaos.Subscriptions != nil {
		chaos.Subscriptions = map[string]synapsefake.ChaosSettings{sub.ID: chaos.Subscriptions["sub"]}
	}
	if err := fake.SetWebhookChaos(chaos); err != nil {
		t.Fatalf("SetWebhookChaos: %v", err)
	}
	id := e.transfer(t)
	if err := fake.Settle(id); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	fake.Flush()
	for _, d := range advances {
		fake.Advance(d)
	}
	var run chaosRun
	for _, d := range rcv.Deliveries() {
		sig := "ok"
		if !synapsefake.VerifySignature(d.Header, d.ObjectID(), fake.ClientID(), fake.ClientSecret()) {
			sig = "bad"
		}
		run.got = append(run.got, d.Status()+" "+sig)
	}
	for _, w := range fake.Webhooks().All() {
		if w.Function != "TRAN|PATCH" {
			continue
		}
		for _, a := range w.Deliveries[0].Attempts {
			run.attempts = append(run.attempts, strings.TrimSpace(fmt.Sprintf("%s %d %s", w.Status, a.Code, a.Chaos)))
		}
	}
	return run
}

// TestWebhookChaosKinds checks each kind of chaos, at probability 1, by what
// the receiver got and what the capture shows.
func TestWebhookChaosKinds(t *testing.T) {
	t.Parallel()
	const (
		pd = "PROCESSING-DEBIT"
		pc = "PROCESSING-CREDIT"
		s  = "SETTLED"
	)
	for _, tc := range []struct {
		name     string
		chaos    synapsefake.WebhookChaos
		advances []time.Duration
		got      []string
		attempts []string
	}{
		{
			name:     "off",
			got:      []string{pd + " ok", pc + " ok", s + " ok"},
			attempts: []string{pd + " 200", pc + " 200", s + " 200"},
		},
		{
			name:     "duplicate sends every attempt twice",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Duplicate: 1}},
			got:      []string{pd + " ok", pd + " ok", pc + " ok", pc + " ok", s + " ok", s + " ok"},
			attempts: []string{pd + " 200 duplicate", pd + " 200", pc + " 200 duplicate", pc + " 200", s + " 200 duplicate", s + " 200"},
		},
		{
			name:  "reorder sends a held delivery right after the next one",
			chaos: synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Reorder: 1}},
			// SETTLED is held too, and nothing follows it.
			got:      []string{pc + " ok", pd + " ok"},
			attempts: []string{pd + " 200 reordered", pc + " 200"},
		},
		{
			name:     "a held delivery no other follows is sent at the hold limit",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Reorder: 1}},
			advances: []time.Duration{synapsefake.ChaosHoldLimit},
			got:      []string{pc + " ok", pd + " ok", s + " ok"},
			attempts: []string{pd + " 200 reordered", pc + " 200", s + " 200 reordered"},
		},
		{
			name:     "delay waits for the clock",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Delay: 1, DelayBy: 5 * time.Minute}},
			advances: []time.Duration{5*time.Minute - time.Millisecond},
		},
		{
			name:     "delay delivers when the clock reaches it",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Delay: 1, DelayBy: 5 * time.Minute}},
			advances: []time.Duration{5 * time.Minute},
			got:      []string{pd + " ok", pc + " ok", s + " ok"},
			attempts: []string{pd + " 200 delayed", pc + " 200 delayed", s + " 200 delayed"},
		},
		{
			name:     "drop-first logs a 503 and sends nothing",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{DropFirst: 1}},
			attempts: []string{pd + " 503 dropped", pc + " 503 dropped", s + " 503 dropped"},
		},
		{
			name:     "drop-first is delivered by the first retry",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{DropFirst: 1}},
			advances: []time.Duration{time.Minute},
			got:      []string{pd + " ok", pc + " ok", s + " ok"},
			attempts: []string{pd + " 503 dropped", pd + " 200", pc + " 503 dropped", pc + " 200", s + " 503 dropped", s + " 200"},
		},
		{
			name:     "bad signature is refused by the receiver and retried",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{BadSignature: 1}},
			advances: []time.Duration{time.Minute},
			got:      []string{pd + " bad", pc + " bad", s + " bad", pd + " bad", pc + " bad", s + " bad"},
			attempts: []string{pd + " 401 bad_signature", pd + " 401 bad_signature", pc + " 401 bad_signature", pc + " 401 bad_signature",
				s + " 401 bad_signature", s + " 401 bad_signature"},
		},
		{
			name:     "kinds combine",
			chaos:    synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Delay: 1, DropFirst: 1, Duplicate: 1}},
			advances: []time.Duration{synapsefake.DefaultChaosDelay, time.Minute},
			got:      []string{pd + " ok", pd + " ok", pc + " ok", pc + " ok", s + " ok", s + " ok"},
			attempts: []string{pd + " 503 delayed,dropped", pd + " 200 duplicate", pd + " 200", pc + " 503 delayed,dropped", pc + " 200 duplicate", pc + " 200",
				s + " 503 delayed,dropped", s + " 200 duplicate", s + " 200"},
		},
		{
			name: "a subscription's settings override the default",
			chaos: synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{DropFirst: 1},
				Subscriptions: map[string]synapsefake.ChaosSettings{"sub": {Duplicate: 1}}},
			got:      []string{pd + " ok", pd + " ok", pc + " ok", pc + " ok", s + " ok", s + " ok"},
			attempts: []string{pd + " 200 duplicate", pd + " 200", pc + " 200 duplicate", pc + " 200", s + " 200 duplicate", s + " 200"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			run := runChaos(t, nil, tc.chaos, tc.advances...)
			if diff := cmp.Diff(tc.got, run.got); diff != "" {
				t.Errorf("receiver got (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.attempts, run.attempts); diff != "" {
				t.Errorf("captured attempts (-want +got):\n%s", diff)
			}
		})
	}
}

// chaosTrace settles transfers under chaos with two subscriptions, the
// second overridden, advances a day, and returns what each receiver got, in
// order: the log_id, the status and whether the signature was good.
func chaosTrace(t *testing.T, seed uint64, transfers int) [2][]string {
	t.Helper()
	e := newHookEnv(t, synapsefake.WithManualProcessing())
	fake := e.fake
	good := func(d testkit.HookDelivery) bool {
		return synapsefake.VerifySignature(d.Header, d.ObjectID(), fake.ClientID(), fake.ClientSecret())
	}
	var rcvs [2]*testkit.HookReceiver
	var subs [2]synapsefake.Subscription
	for i := range rcvs {
		rcvs[i] = testkit.NewHookReceiver(t, func(_ int, d testkit.HookDelivery) (int, string) {
			if !good(d) {
				return http.StatusUnauthorized, "bad signature"
			}
			return http.StatusOK, "ok"
		})
		subs[i] = fake.MustAddSubscription(t, rcvs[i].Url, "TRANS|POST", "TRAN|PATCH")
	}
	some := synapsefake.ChaosSettings{Duplicate: 0.3, Reorder: 0.3, Delay: 0.2, DelayBy: 2 * time.Minute, DropFirst: 0.2, BadSignature: 0.2}
	err := fake.SetWebhookChaos(synapsefake.WebhookChaos{Seed: seed, Default: some,
		Subscriptions: map[string]synapsefake.ChaosSettings{subs[1].ID: {Duplicate: 0.5, Reorder: 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	for range transfers {
		id := e.transfer(t)
		if err := fake.Settle(id); err != nil {
			t.Fatal(err)
		}
	}
	// Advance moves the clock before it runs what fell due: an attempt
	// still in flight would see the new time and retry before the others.
	fake.Flush()
	fake.Advance(24 * time.Hour)
	var traces [2][]string
	for i, rcv := range rcvs {
		for _, d := range rcv.Deliveries() {
			traces[i] = append(traces[i], fmt.Sprintf("%s %s %v", d.Meta("log_id"), d.Status(), good(d)))
		}
	}
	return traces
}

// TestWebhookChaosIsSeeded checks that the same seed and the same calls
// give the same deliveries, in the same order, to every subscription, and
// that another seed gives others.
func TestWebhookChaosIsSeeded(t *testing.T) {
	t.Parallel()
	const transfers = 8 // 32 events per subscription
	a, b, other := chaosTrace(t, 42, transfers), chaosTrace(t, 42, transfers), chaosTrace(t, 43, transfers)
	for i := range a {
		if len(a[i]) <= 4*transfers {
			t.Errorf("subscription %d got %d deliveries of %d events: no duplicate or retry", i, len(a[i]), 4*transfers)
		}
		if diff := cmp.Diff(a[i], b[i]); diff != "" {
			t.Errorf("subscription %d: the same seed gave other deliveries (-first +second):\n%s", i, diff)
		}
		if cmp.Equal(a[i], other[i]) {
			t.Errorf("subscription %d: seeds 42 and 43 gave the same deliveries", i)
		}
	}
	if cmp.Equal(a[0], a[1]) {
		t.Errorf("the overridden subscription got the same deliveries as the default one")
	}
}

// TestWebhookChaosControl checks PUT, GET and DELETE /_fake/webhooks/chaos,
// and that a refused body is the error envelope and changes nothing.
func TestWebhookChaosControl(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t)
	off := map[string]any{"seed": 0.0, "subscriptions": map[string]any{},
		"default": map[string]any{"duplicate": 0.0, "reorder": 0.0, "delay": 0.0, "delay_by": "", "drop_first": 0.0, "bad_signature": 0.0}}
	set := map[string]any{"seed": 7.0,
		"default":       map[string]any{"duplicate": 0.2, "reorder": 0.1, "delay": 0.3, "delay_by": "90s", "drop_first": 0.4, "bad_signature": 0.05},
		"subscriptions": map[string]any{"sub1": map[string]any{"duplicate": 1.0}}}
	stored := map[string]any{"seed": 7.0,
		"default":       map[string]any{"duplicate": 0.2, "reorder": 0.1, "delay": 0.3, "delay_by": "1m30s", "drop_first": 0.4, "bad_signature": 0.05},
		"subscriptions": map[string]any{"sub1": map[string]any{"duplicate": 1.0, "reorder": 0.0, "delay": 0.0, "delay_by": "", "drop_first": 0.0, "bad_signature": 0.0}}}
	wantGo := synapsefake.WebhookChaos{Seed: 7,
		Default:       synapsefake.ChaosSettings{Duplicate: 0.2, Reorder: 0.1, Delay: 0.3, DelayBy: 90 * time.Second, DropFirst: 0.4, BadSignature: 0.05},
		Subscriptions: map[string]synapsefake.ChaosSettings{"sub1": {Duplicate: 1}}}

	if diff := cmp.Diff(map[string]any{"success": true, "chaos": off}, testkit.CtlOK(t, fake, "GET", "/webhooks/chaos", nil)); diff != "" {
		t.Errorf("GET before any PUT (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"success": true, "chaos": stored}, testkit.CtlOK(t, fake, "PUT", "/webhooks/chaos", set)); diff != "" {
		t.Errorf("PUT (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantGo, fake.WebhookChaos()); diff != "" {
		t.Errorf("WebhookChaos after PUT (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name string
		body any
		code string
	}{
		{"empty body", "", "invalid_json"},
		{"not an object", "[]", "invalid_json"},
		{"unknown field", map[string]any{"sed": 1}, "unknown_field"},
		{"unknown setting", map[string]any{"default": map[string]any{"duplicates": 0.5}}, "unknown_field"},
		{"negative seed", map[string]any{"seed": -1}, "invalid_field_type"},
		{"probability as a string", map[string]any{"default": map[string]any{"duplicate": "half"}}, "invalid_field_type"},
		{"probability above 1", map[string]any{"default": map[string]any{"reorder": 1.5}}, "invalid_chaos"},
		{"negative probability", map[string]any{"subscriptions": map[string]any{"s": map[string]any{"drop_first": -0.1}}}, "invalid_chaos"},
		{"delay not a duration", map[string]any{"default": map[string]any{"delay": 1, "delay_by": "soon"}}, "invalid_chaos"},
		{"zero delay", map[string]any{"default": map[string]any{"delay": 1, "delay_by": "0s"}}, "invalid_chaos"},
		{"negative delay", map[string]any{"default": map[string]any{"delay": 1, "delay_by": "-1m"}}, "invalid_chaos"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testkit.WantError(t, testkit.Ctl(t, fake, "PUT", "/webhooks/chaos", tc.body), http.StatusBadRequest, "200", tc.code)
			if diff := cmp.Diff(wantGo, fake.WebhookChaos()); diff != "" {
				t.Errorf("a refused PUT changed the settings (-want +got):\n%s", diff)
			}
		})
	}
	testkit.WantError(t, testkit.Ctl(t, fake, "POST", "/webhooks/chaos", set), http.StatusMethodNotAllowed, "410", "method_not_allowed")
	if diff := cmp.Diff(map[string]any{"success": true, "chaos": off}, testkit.CtlOK(t, fake, "DELETE", "/webhooks/chaos", nil)); diff != "" {
		t.Errorf("DELETE (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(synapsefake.WebhookChaos{}, fake.WebhookChaos()); diff != "" {
		t.Errorf("WebhookChaos after DELETE (-want +got):\n%s", diff)
	}
}

// TestWithWebhookChaos checks the option: chaos from the start, and a panic
// naming the setting for invalid settings.
func TestWithWebhookChaos(t *testing.T) {
	t.Parallel()
	run := runChaos(t, []synapsefake.Option{synapsefake.WithWebhookChaos(synapsefake.WebhookChaos{
		Default: synapsefake.ChaosSettings{Duplicate: 1}})}, synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Duplicate: 1}})
	if len(run.got) != 6 {
		t.Errorf("receiver got %d POSTs of 3 events, want 6: %v", len(run.got), run.got)
	}
	for _, tc := range []struct {
		name  string
		chaos synapsefake.WebhookChaos
		want  string
	}{
		{"probability above 1", synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{Duplicate: 2}},
			"synapsefake: WithWebhookChaos: default.duplicate must be a probability from 0 to 1, got 2."},
		{"negative delay", synapsefake.WebhookChaos{Subscriptions: map[string]synapsefake.ChaosSettings{"s": {DelayBy: -time.Second}}},
			"synapsefake: WithWebhookChaos: subscriptions.s.delay_by must not be negative, got -1s."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tc.want {
					t.Errorf("New panicked with %v, want %q", got, tc.want)
				}
			}()
			synapsefake.New(synapsefake.WithWebhookChaos(tc.chaos))
		})
	}
	if err := synapsefake.New().SetWebhookChaos(synapsefake.WebhookChaos{Default: synapsefake.ChaosSettings{BadSignature: -1}}); err == nil {
		t.Errorf("SetWebhookChaos accepted a negative probability")
	}
}

// TestWebhookChaosInLogs checks that the webhook log, the control view of
// the capture and a saved state show what chaos did to each attempt.
func TestWebhookChaosInLogs(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithWebhookChaos(synapsefake.WebhookChaos{
		Default: synapsefake.ChaosSettings{DropFirst: 1, Duplicate: 1}}))
	rcv := testkit.NewHookReceiver(t, nil)
	fake.MustAddSubscription(t, rcv.Url, "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	fake.Flush()
	fake.Advance(time.Minute)

	var responses []string
	for _, e := range hookLogs(t, fake, "")["logs"].([]any) {
		for _, r := range e.(map[string]any)["http_responses"].([]any) {
			m := r.(map[string]any)
			responses = append(responses, fmt.Sprintf("%v %v", m["http_response_code"], m["chaos"]))
		}
		responses = append(responses, "|")
	}
	// Newest entry first; each lists the delivery's attempts up to its own.
	want := []string{"503 dropped", "200 duplicate", "200 <nil>", "|", "503 dropped", "200 duplicate", "|", "503 dropped", "|"}
	if diff := cmp.Diff(want, responses); diff != "" {
		t.Errorf("log http_responses (-want +got):\n%s", diff)
	}

	var control []string
	for _, w := range testkit.CtlOK(t, fake, "GET", "/webhooks", nil)["webhooks"].([]any) {
		for _, d := range w.(map[string]any)["deliveries"].([]any) {
			for _, a := range d.(map[string]any)["attempts"].([]any) {
				m := a.(map[string]any)
				control = append(control, fmt.Sprintf("%v %v", m["code"], m["chaos"]))
			}
		}
	}
	if diff := cmp.Diff([]string{"503 dropped", "200 duplicate", "200 <nil>"}, control); diff != "" {
		t.Errorf("GET /_fake/webhooks attempts (-want +got):\n%s", diff)
	}

	var state bytes.Buffer
	if err := fake.Snapshot(&state); err != nil {
		t.Fatal(err)
	}
	restored := synapsefake.New()
	if err := restored.Restore(&state); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(attemptChaos(fake), attemptChaos(restored)); diff != "" {
		t.Errorf("restored attempts' chaos (-saved +restored):\n%s", diff)
	}
}

// attemptChaos is Attempt.Chaos of every captured attempt.
func attemptChaos(fake *synapsefake.Server) []string {
	var out []string
	for _, w := range fake.Webhooks().All() {
		for _, d := range w.Deliveries {
			for _, a := range d.Attempts {
				out = append(out, a.Chaos)
			}
		}
	}
	return out
}

// BenchmarkWebhookChaos measures an event delivered to a live receiver
// (AddUser, then Flush) with chaos never turned on, turned on and off
// again, and on (every kind but delay at 0.2).
func BenchmarkWebhookChaos(b *testing.B) {
	some := synapsefake.WebhookChaos{Seed: 1, Default: synapsefake.ChaosSettings{Duplicate: 0.2, Reorder: 0.2, DropFirst: 0.2, BadSignature: 0.2}}
	for _, bc := range []struct {
		name  string
		chaos []synapsefake.WebhookChaos // set in turn
	}{
		{"off", nil},
		{"turned off", []synapsefake.WebhookChaos{some, {}}},
		{"on", []synapsefake.WebhookChaos{some}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			fake := synapsefake.NewServer(b, synapsefake.WithWebhookLogLimit(1<<20), synapsefake.WithWebhookCaptureLimit(1<<20))
			rcv := testkit.NewHookReceiver(b, nil)
			fake.MustAddSubscription(b, rcv.Url, "USERS|POST")
			for _, c := range bc.chaos {
				if err := fake.SetWebhookChaos(c); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				fake.MustAddUser(b, synapsefake.UserSeed{})
				fake.Flush()
			}
		})
	}
}
