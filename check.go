package synapsefake

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// The Check helpers assert the fake's state in a test, in the manner of
// miniredis's Check functions. A check that fails reports what it wanted
// and what it found, as a go-cmp diff (-want +got), through tb.Errorf: the
// test is marked failed and goes on. Each returns whether it passed, so a
// test that cannot go on stops with
//
//	if !fake.CheckStatus(t, txID, synapsefake.StatusSettled) {
//		t.FailNow()
//	}
//
// Like a request, a check first applies the clock-driven work that is due,
// so a test that moves a shared mock clock itself checks a consistent
// store.

// checkListMax bounds the webhooks or requests a failed check lists.
const checkListMax = 20

// checkedStatus is what CheckStatus compares.
type checkedStatus struct {
	Status Status
	Code   string
}

// CheckStatus checks that transaction txID has status want and, when code
// is given (at most one), that its recent_status.code is code: an R code
// for an ACH return, an IR code for a card decline, "" for none:
//
//	fake.CheckStatus(t, tx.ID, synapsefake.StatusReturned, "R02")
//
// A failure shows the status and code found and the transaction's
// timeline.
func (s *Server) CheckStatus(tb TB, txID string, want Status, code ...string) bool {
	// tb.Helper only on the way to a failure: it costs more than a check
	// that passes.
	if len(code) > 1 {
		tb.Helper()
		tb.Errorf("synapsefake: CheckStatus(%q): give at most one code, not %q", txID, code)
		return false
	}
	s.core.RunDueFast()
	got, ok := s.txStatus(txID)
	if !ok {
		tb.Helper()
		tb.Errorf("synapsefake: CheckStatus: no transaction %q (want status %s)", txID, want)
		return false
	}
	w := checkedStatus{want, got.Code}
	if len(code) == 1 {
		w.Code = code[0]
	}
	if w == got {
		return true
	}
	tb.Helper()
	tx, _ := s.core.Transaction(txID)
	var msg strings.Builder
	now := s.core.Now()
	fmt.Fprintf(&msg, "synapsefake: CheckStatus: transaction %s at %s (-want +got):\n%s\ntimeline:", txID, bank.FmtInstant(now), cmp.Diff(w, got))
	for _, e := range tx.Timeline {
		fmt.Fprintf(&msg, "\n  %s  %s", bank.FmtInstant(e.Date), e.Status)
		if e.Note != "" {
			fmt.Fprintf(&msg, " (%s)", e.Note)
		}
	}
	s.describePendingOf(&msg, now, "it", func(id, _, _ string) bool { return id == txID })
	tb.Errorf("%s", msg.String())
	return false
}

// describePendingOf writes the pending work keep chooses, as Wait's
// failure does, or that none of it concerns what (a noun: "it", "the
// node").
func (s *Server) describePendingOf(b *strings.Builder, now time.Time, what string, keep func(id, fromNode, toNode string) bool) {
	items := s.core.PendingTxWork(keep)
	if len(items) == 0 {
		fmt.Fprintf(b, "\nnothing is pending on the clock for %s", what)
		return
	}
	bank.DescribePending(b, now, items)
}

// txStatus is what CheckStatus compares of a transaction, read without
// copying the transaction.
func (s *Server) txStatus(id string) (checkedStatus, bool) {
	status, code, ok := s.core.TxStatusOf(id)
	return checkedStatus{status, code}, ok
}

// nodeBalance is what CheckBalance compares of a node, read without
// copying the node.
func (s *Server) nodeBalance(id string) (checkedBalance, bool) {
	balance, available, ok := s.core.NodeBalanceOf(id)
	return checkedBalance{balance, available}, ok
}

// checkedBalance is what CheckBalance compares.
type checkedBalance struct {
	BalanceCents   int64
	AvailableCents int64
}

// CheckBalance checks a node's balance and available balance, in cents:
//
//	fake.CheckBalance(t, node.ID, 75_00, 75_00)
//
// The available balance is the balance less the debits promised but not
// yet made (Node.AvailableCents).
func (s *Server) CheckBalance(tb TB, nodeID string, balanceCents, availableCents int64) bool {
	s.core.RunDueFast()
	got, ok := s.nodeBalance(nodeID)
	want := checkedBalance{balanceCents, availableCents}
	if !ok {
		tb.Helper()
		tb.Errorf("synapsefake: CheckBalance: no node %q (want %+v)", nodeID, want)
		return false
	}
	if got == want {
		return true
	}
	tb.Helper()
	n, _ := s.core.Node(nodeID)
	var msg strings.Builder
	now := s.core.Now()
	fmt.Fprintf(&msg, "synapsefake: CheckBalance: node %s (%s) at %s (-want +got):\n%s", nodeID, n.Nickname, bank.FmtInstant(now), cmp.Diff(want, got))
	s.describePendingOf(&msg, now, "the node", func(_, from, to string) bool { return from == nodeID || to == nodeID })
	tb.Errorf("%s", msg.String())
	return false
}

// CheckPermission checks that user userID holds permission want
// (PermissionSendAndReceive...). A failure shows the user's permission
// history and its sub-documents with their statuses and pending reviews.
func (s *Server) CheckPermission(tb TB, userID string, want Permission) bool {
	s.core.RunDueFast()
	u, ok := s.core.User(userID)
	if !ok {
		tb.Helper()
		tb.Errorf("synapsefake: CheckPermission: no user %q (want permission %s)", userID, want)
		return false
	}
	if u.Permission == want {
		return true
	}
	tb.Helper()
	var msg strings.Builder
	fmt.Fprintf(&msg, "synapsefake: CheckPermission: user %s at %s (-want +got):\n%s", userID, bank.FmtInstant(s.core.Now()), cmp.Diff(string(want), string(u.Permission)))
	msg.WriteString("permission history:\n")
	for _, c := range u.PermissionHistory {
		fmt.Fprintf(&msg, "\t%s  %s (%s)\n", bank.FmtInstant(c.At), c.Permission, c.By)
	}
	if len(u.Documents) == 0 {
		msg.WriteString("no documents: a user's documents give it its permission (POST or PATCH /users documents[], or UserSeed.Documents)\n")
	}
	for _, d := range u.Documents {
		fmt.Fprintf(&msg, "base document %s (%s), permission_scope %s:\n", d.ID, d.Name, d.PermissionScope)
		for _, sd := range d.SubDocuments {
			fmt.Fprintf(&msg, "\t%s %s %s %s", sd.Kind, sd.Type, sd.ID, sd.Status)
			if !sd.ReviewAt.IsZero() {
				fmt.Fprintf(&msg, " (review due %s: Advance, or ReviewDocument)", bank.FmtInstant(sd.ReviewAt))
			}
			msg.WriteString("\n")
		}
	}
	tb.Errorf("%s", msg.String())
	return false
}

// matchAll reports whether w satisfies every matcher.
func matchAll(w Webhook, match []WebhookMatcher) bool {
	for _, m := range match {
		if !m(w) {
			return false
		}
	}
	return true
}

// capturedWebhooks flushes the deliveries in flight, so that their
// attempts are recorded, and returns the capture.
func (s *Server) capturedWebhooks() []Webhook {
	s.core.RunDueFast()
	s.core.Flush()
	return s.core.Webhooks().All()
}

// CheckWebhook checks that a captured webhook satisfies every matcher
// (ForTransaction, ForFunction, ForObject or your own; none matches any
// webhook):
//
//	fake.CheckWebhook(t, synapsefake.ForTransaction(tx.ID, synapsefake.StatusSettled))
//
// It does not wait: webhooks are captured when the change happens, and it
// calls Flush first so that deliveries in flight are recorded. To wait for
// a change another goroutine makes, use Webhooks().Wait. A failure lists
// what was captured and, when a captured webhook misses by one field (its
// status, function or object type), the diff to that nearest one.
func (s *Server) CheckWebhook(tb TB, match ...WebhookMatcher) bool {
	tb.Helper()
	all := s.capturedWebhooks()
	for _, w := range all {
		if matchAll(w, match) {
			return true
		}
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "synapsefake: CheckWebhook: none of the %d captured webhooks matched", len(all))
	if want, got, ok := nearestWebhook(all, match); ok {
		fmt.Fprintf(&msg, "; the nearest (-want +got):\n%s", cmp.Diff(want, got))
	}
	msg.WriteString("\ncaptured:" + listWebhooks(all))
	tb.Errorf("%s", msg.String())
	return false
}

// CheckNoWebhook checks that no captured webhook satisfies every matcher:
//
//	fake.CheckNoWebhook(t, synapsefake.ForTransaction(tx.ID, synapsefake.StatusReturned))
//
// It calls Flush first, so that deliveries in flight are recorded, and
// does not wait for changes to come. A failure shows the webhooks that
// matched.
func (s *Server) CheckNoWebhook(tb TB, match ...WebhookMatcher) bool {
	tb.Helper()
	all := s.capturedWebhooks()
	got := []string{}
	for _, w := range all {
		if matchAll(w, match) {
			got = append(got, checkedOf(w).summary())
		}
	}
	if len(got) == 0 {
		return true
	}
	tb.Errorf("synapsefake: CheckNoWebhook: %d of the %d captured webhooks matched (-want +got):\n%s",
		len(got), len(all), cmp.Diff([]string{}, got))
	return false
}

// listWebhooks lists the newest checkListMax webhooks, one a line.
func listWebhooks(all []Webhook) string {
	if len(all) == 0 {
		return " none"
	}
	var b strings.Builder
	first := max(len(all)-checkListMax, 0)
	if first > 0 {
		fmt.Fprintf(&b, "\n  (%d older not shown)", first)
	}
	for i := first; i < len(all); i++ {
		fmt.Fprintf(&b, "\n  %d. %s", i+1, checkedOf(all[i]).summary())
	}
	return b.String()
}

// nearestWebhook finds the newest captured webhook that would satisfy
// every matcher with one field changed (Status, Function or ObjectType, to
// a value the fake can emit), and returns it as wanted and as found.
// Matchers are opaque functions: trying them on such variants is how a
// failure can name the value they wanted.
func nearestWebhook(all []Webhook, match []WebhookMatcher) (want, got checkedWebhook, ok bool) {
	if len(match) == 0 {
		return want, got, false
	}
	statuses := []string{string(StatusQueuedBySynapse), string(StatusQueuedByReceiver), string(StatusCreated),
		string(StatusProcessingDebit), string(StatusProcessingCredit), string(StatusSettled), string(StatusCanceled),
		string(StatusReturned), string(SubnetInactive), string(SubnetActive), string(SubnetTerminated)}
	functions := reference.SubscriptionScopes()
	types := []string{"USER", "NODE", "TRAN", "SUBNET", "STATEMENT"}
	for i := len(all) - 1; i >= 0; i-- {
		w := all[i]
		for _, try := range []struct {
			field  *string
			values []string
		}{{&w.Status, statuses}, {&w.Function, functions}, {&w.ObjectType, types}} {
			orig := *try.field
			for _, v := range try.values {
				if v == orig {
					continue
				}
				*try.field = v
				if matchAll(w, match) {
					want = checkedOf(w)
					*try.field = orig
					return want, checkedOf(w), true
				}
			}
			*try.field = orig
		}
	}
	return want, got, false
}

// CheckRequest checks that the server answered a call to method and route,
// whatever the answer: that the application sent it. route is written as
// the spec writes it, without the version prefix; a {name} segment matches
// any id, and a segment may be an id itself:
//
//	fake.CheckRequest(t, "POST", "/users/{user_id}/nodes/{node_id}/trans")
//	fake.CheckRequest(t, "POST", "/users/{user_id}/nodes/"+node.ID+"/trans")
//
// body, when given (at most one), is a subset the call's JSON body must
// hold: every field it names, at any depth, with the same value (numbers
// compare as JSON numbers, so 25 matches 25.0); other fields may be
// anything. It may be a map or a struct that encodes to a JSON object:
//
//	fake.CheckRequest(t, "POST", route, map[string]any{"amount": map[string]any{"amount": 25}})
//
// It reads the request journal (Requests), so a call the journal's bounds
// dropped is not found. A failure lists the calls answered (the route of
// each, or its path when it matched none) or, when calls to the route came
// without the body, shows the diff to the newest of them.
func (s *Server) CheckRequest(tb TB, method, route string, body ...any) bool {
	tb.Helper()
	if len(body) > 1 {
		tb.Errorf("synapsefake: CheckRequest(%s %s): give at most one body, not %d", method, route, len(body))
		return false
	}
	var want any
	if len(body) == 1 {
		b, err := json.Marshal(body[0])
		if err == nil {
			err = json.Unmarshal(b, &want)
		}
		if err != nil {
			tb.Errorf("synapsefake: CheckRequest(%s %s): the wanted body does not encode to JSON: %v", method, route, err)
			return false
		}
	}
	all := s.core.Requests()
	var onRoute []Request
	for _, r := range all {
		if r.Method == method && routeMatches(route, r) {
			if len(body) == 0 {
				return true
			}
			onRoute = append(onRoute, r)
		}
	}
	var got any
	for _, r := range onRoute {
		got = nil
		if json.Unmarshal(r.Body, &got) != nil {
			got = string(r.Body)
		}
		got = projectJSON(got, want)
		if cmp.Equal(want, got) {
			return true
		}
	}
	if len(onRoute) > 0 {
		tb.Errorf("synapsefake: CheckRequest: %s, none with the wanted body; the newest (-want +got):\n%s",
			plural(len(onRoute), "call "+method+" "+route, "calls "+method+" "+route), cmp.Diff(want, got))
		return false
	}
	var list strings.Builder
	first := max(len(all)-checkListMax, 0)
	if first > 0 {
		fmt.Fprintf(&list, "\n  (%d older not shown)", first)
	}
	for i, r := range all[first:] {
		fmt.Fprintf(&list, "\n  %d. %s %s -> %d/%s", first+i+1, r.Method, displayRoute(r), r.Status, r.ErrorCode)
	}
	if len(all) == 0 {
		list.WriteString(" none")
	}
	tb.Errorf("synapsefake: CheckRequest: want a call %s %s; the server answered %d, none of them that one:%s",
		method, route, len(all), list.String())
	return false
}

// plural is n with the singular or the plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// displayRoute is the call's route, or its path when no route matched.
func displayRoute(r Request) string {
	if r.Route != "" {
		return r.Route
	}
	return r.Path
}

// routeMatches reports whether a call matches route, segment by segment:
// a {name} segment of route must stand where the call's route has one (so
// "/users/{user_id}" does not match GET /users/entity-types), any other
// segment must equal the path's.
func routeMatches(route string, r Request) bool {
	if route == r.Route {
		return true
	}
	want := strings.Split(route, "/")
	path := strings.Split(strings.TrimPrefix(r.Path, api.APIPrefix), "/")
	if len(want) != len(path) {
		return false
	}
	var pattern []string
	if r.Route != "" {
		pattern = strings.Split(r.Route, "/")
	}
	for i, w := range want {
		if isWildcard(w) {
			if pattern == nil || len(pattern) != len(want) || !isWildcard(pattern[i]) {
				return false
			}
			continue
		}
		if w != path[i] {
			return false
		}
	}
	return true
}

func isWildcard(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}

// projectJSON returns got cut down to the shape of want: of an object only
// the keys want names, of an array as many elements as got has, each cut
// to want's element. got then equals want exactly when it holds want.
func projectJSON(got, want any) any {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(w))
		for k, wv := range w {
			if gv, ok := g[k]; ok {
				out[k] = projectJSON(gv, wv)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return got
		}
		out := make([]any, len(g))
		for i, gv := range g {
			if i < len(w) {
				gv = projectJSON(gv, w[i])
			}
			out[i] = gv
		}
		return out
	}
	return got
}

// checkedOf is the part of w the matchers read.
func checkedOf(w Webhook) checkedWebhook {
	return checkedWebhook{w.Function, w.ObjectType, w.ObjectID, w.Status, w.Code}
}

// checkedWebhook is the part of a Webhook the matchers read, as a failed
// CheckWebhook shows it.
type checkedWebhook struct {
	Function   string
	ObjectType string
	ObjectID   string
	Status     string
	Code       string
}

// summary is the webhook on one line, without its deliveries.
func (c checkedWebhook) summary() string {
	s := c.Function + " " + c.ObjectType + "_" + c.ObjectID
	if c.Status != "" {
		s += " " + c.Status
	}
	if c.Code != "" {
		s += " (" + c.Code + ")"
	}
	return s
}
