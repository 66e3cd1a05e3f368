package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake"
)

// stmtStart is a Monday morning early in March 2026, UTC.
var stmtStart = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// stmtEnv is a fake on a mock clock set to stmtStart with the accounts the
// statement tests need. Keys live 7200 s, so every call mints a fresh one.
type stmtEnv struct {
	fake     *synapsefake.Server
	sender   synapsefake.User // "Sam Sender"
	checking synapsefake.Node // the sender's DEPOSIT-US "Checking", opened with $1,000.00
	savings  synapsefake.Node // the sender's DEPOSIT-US "Savings"
	bank     synapsefake.Node // the sender's ACH-US "Bank"
	payee    synapsefake.User // "Pat Payee"
	payeeDep synapsefake.Node // the payee's DEPOSIT-US "Checking"
	feeNode  synapsefake.Node // a DEPOSIT-US node of "Platform Inc", credited with fees
}

func newStmtEnv(t testing.TB, opts ...synapsefake.Option) stmtEnv {
	t.Helper()
	mock := clock.NewMock()
	mock.Set(stmtStart)
	fake := synapsefake.NewServer(t, append([]synapsefake.Option{synapsefake.WithClock(mock)}, opts...)...)
	e := stmtEnv{fake: fake}
	e.sender = fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint, LegalNames: []string{"Sam Sender"}})
	e.checking = stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Nickname: "Checking", BalanceCents: 100_000})
	e.savings = stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Nickname: "Savings"})
	e.bank = stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Type: "ACH-US", Nickname: "Bank",
		AccountNum: "123456789", RoutingNum: "051000017"})
	e.payee = fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint, LegalNames: []string{"Pat Payee"}})
	e.payeeDep = stmtNode(t, fake, e.payee.ID, synapsefake.NodeSeed{Nickname: "Checking"})
	platform := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Platform Inc"}})
	e.feeNode = stmtNode(t, fake, platform.ID, synapsefake.NodeSeed{Nickname: "Fees"})
	return e
}

func stmtNode(t testing.TB, fake *synapsefake.Server, userID string, seed synapsefake.NodeSeed) synapsefake.Node {
	t.Helper()
	n := fake.MustAddNode(t, userID, seed)
	return n
}

// headers are the user-level headers of userID with a fresh key holding
// the given scopes (all when none).
func (e stmtEnv) headers(userID string, scopes ...string) map[string]string {
	return testkit.UserHeaders(e.fake, e.fake.OAuthKey(userID, testkit.TestFingerprint, scopes...))
}

// advanceTo moves the fake's clock to at.
func (e stmtEnv) advanceTo(at time.Time) { e.fake.Advance(at.Sub(e.fake.Now())) }

// transfer creates a transaction from a node of the sender and returns its id.
func (e stmtEnv) transfer(t testing.TB, from, to synapsefake.Node, amount float64, fees ...map[string]any) string {
	t.Helper()
	body := map[string]any{
		"to":     map[string]any{"type": to.Type, "id": to.ID},
		"amount": map[string]any{"amount": amount, "currency": "USD"},
		"extra":  map[string]any{"ip": "192.168.0.1", "note": "test"},
	}
	if len(fees) > 0 {
		body["fees"] = fees
	}
	r := testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: "/users/" + from.UserID + "/nodes/" + from.ID + "/trans",
		Header: e.headers(from.UserID), Body: body})
	if r.Status != http.StatusOK {
		t.Fatalf("create transaction: %d %s", r.Status, r.Raw)
	}
	return r.Body["_id"].(string)
}

// dummy makes a sandbox deposit (credit) or withdrawal into or out of n over ACH.
func (e stmtEnv) dummy(t testing.TB, n synapsefake.Node, amount string, credit bool) string {
	t.Helper()
	isCredit := "YES"
	if !credit {
		isCredit = "NO"
	}
	r := testkit.Do(t, e.fake, testkit.Call{Method: "GET", Path: "/users/" + n.UserID + "/nodes/" + n.ID + "/dummy-tran?amount=" + amount + "&is_credit=" + isCredit,
		Header: e.headers(n.UserID)})
	if r.Status != http.StatusOK {
		t.Fatalf("dummy transaction: %d %s", r.Status, r.Raw)
	}
	return r.Body["_id"].(string)
}

// postStatement creates an ad hoc statement of n and returns the answer.
func (e stmtEnv) postStatement(t testing.TB, n synapsefake.Node, body any) testkit.Response {
	t.Helper()
	return testkit.Do(t, e.fake, testkit.Call{Method: "POST", Path: testkit.NodeStmtsPath(n), Header: e.headers(n.UserID), Body: body})
}

// usd is the PDF's money format: -123456 -> "-$1,234.56".
func usd(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	whole := strconv.FormatInt(c/100, 10)
	var b strings.Builder
	for i := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	return fmt.Sprintf("%s$%s.%02d", sign, b.String(), c%100)
}

// movementKey is what reconciliation compares of a movement.
type movementKey struct {
	Kind   string
	TxID   string
	Amount int64
}

func movementKeys(ms []synapsefake.Movement) []movementKey {
	out := make([]movementKey, len(ms))
	for i, m := range ms {
		out[i] = movementKey{m.Kind, m.TransactionID, m.AmountCents}
	}
	return out
}

// reconcile checks a generated statement against itself and the node's
// transaction history: each movement's date is the timeline date of the
// status that moved the money, its amount what that status moved on the
// node, the running balances add up, and ending = opening + movements.
func reconcile(t *testing.T, fake *synapsefake.Server, s synapsefake.Statement) {
	t.Helper()
	if s.Status != synapsefake.StatementGenerated {
		t.Fatalf("statement %s is %s, want GENERATED", s.ID, s.Status)
	}
	bal := s.OpeningBalanceCents
	for i, m := range s.Movements {
		bal += m.AmountCents
		if m.BalanceCents != bal {
			t.Errorf("movement %d: balance %d, want %d", i, m.BalanceCents, bal)
		}
		if m.Date.Before(s.Start) || m.Date.After(s.End) {
			t.Errorf("movement %d dated %v, outside the period %v..%v", i, m.Date, s.Start, s.End)
		}
		if m.Kind == synapsefake.MovementInitial {
			continue
		}
		tx, ok := fake.Transaction(m.TransactionID)
		if !ok {
			t.Errorf("movement %d: unknown transaction %s", i, m.TransactionID)
			continue
		}
		status := map[string]synapsefake.Status{synapsefake.MovementDebit: synapsefake.StatusProcessingDebit,
			synapsefake.MovementCredit: synapsefake.StatusSettled, synapsefake.MovementFee: synapsefake.StatusSettled,
			synapsefake.MovementReturn: synapsefake.StatusReturned}[m.Kind]
		found := false
		for j, e := range tx.Timeline {
			// A dishonored return debits the sender again as the
			// transaction goes from RETURNED back to SETTLED.
			dishonor := m.Kind == synapsefake.MovementDebit && e.Status == synapsefake.StatusSettled &&
				j > 0 && tx.Timeline[j-1].Status == synapsefake.StatusReturned
			found = found || (e.Status == status || dishonor) && e.Date.Equal(m.Date)
		}
		if !found {
			t.Errorf("movement %d (%s of %s) dated %v: no %s at that date in the timeline %v", i, m.Kind, tx.ID, m.Date, status, tx.Timeline)
		}
		var fees, feesHere int64
		for _, f := range tx.Fees {
			fees += f.AmountCents
			if f.NodeID == s.NodeID {
				feesHere += f.AmountCents
			}
		}
		var want []int64
		switch {
		case m.Kind == synapsefake.MovementDebit && tx.FromNodeID == s.NodeID:
			want = []int64{-tx.AmountCents}
		case m.Kind == synapsefake.MovementCredit && tx.ToNodeID == s.NodeID:
			want = []int64{tx.AmountCents - fees}
		case m.Kind == synapsefake.MovementFee:
			want = []int64{feesHere}
		case m.Kind == synapsefake.MovementReturn:
			want = []int64{tx.AmountCents, -(tx.AmountCents - fees), -feesHere}
		}
		if !slices.Contains(want, m.AmountCents) {
			t.Errorf("movement %d (%s of %s): amount %d, want one of %v", i, m.Kind, tx.ID, m.AmountCents, want)
		}
	}
	if bal != s.EndingBalanceCents {
		t.Errorf("ending balance %d, want opening %d + movements = %d", s.EndingBalanceCents, s.OpeningBalanceCents, bal)
	}
}

func TestMonthlyStatementReconciles(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t)
	fake := e.fake

	// March: a deposit, a payment with a fee, a transfer returned after it
	// settled, a withdrawal returned with R01 before it did, and a deposit
	// that only settles in April.
	deposit := e.dummy(t, e.checking, "250", true) // ACH: settles Tuesday 09:00
	payment := e.transfer(t, e.checking, e.payeeDep, 100,
		map[string]any{"fee": 1.5, "note": "Platform fee", "to": map[string]any{"id": e.feeNode.ID}})
	fake.Advance(time.Hour)
	moved := e.transfer(t, e.checking, e.savings, 40)
	fake.Advance(time.Minute)
	if err := fake.Return(moved, "R01"); err != nil {
		t.Fatalf("Return settled transfer: %v", err)
	}
	withdrawal := e.dummy(t, e.checking, "30", false)
	fake.Advance(2 * time.Minute) // PROCESSING-DEBIT: the money left
	if err := fake.Return(withdrawal, "R01"); err != nil {
		t.Fatalf("Return withdrawal: %v", err)
	}
	e.advanceTo(time.Date(2026, time.March, 31, 20, 0, 0, 0, time.UTC))
	late := e.dummy(t, e.checking, "75", true) // settles Wednesday April 1, 20:00
	e.advanceTo(time.Date(2026, time.April, 14, 23, 59, 0, 0, time.UTC))
	if got := fake.Statements(e.checking.ID); len(got) != 0 {
		t.Fatalf("statements before the 15th: %+v", got)
	}
	e.advanceTo(time.Date(2026, time.April, 16, 0, 0, 0, 0, time.UTC))

	marchStart := time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC)
	marchEnd := time.Date(2026, time.April, 1, 0, 0, 0, 0, time.UTC).Add(-time.Millisecond)
	for _, tc := range []struct {
		name    string
		node    synapsefake.Node
		want    []movementKey
		opening int64
		ending  int64
	}{
		{"sender", e.checking, []movementKey{
			{synapsefake.MovementInitial, "", 100_000},
			{synapsefake.MovementDebit, payment, -10_000},
			{synapsefake.MovementDebit, moved, -4_000},
			{synapsefake.MovementReturn, moved, 4_000},
			{synapsefake.MovementDebit, withdrawal, -3_000},
			{synapsefake.MovementReturn, withdrawal, 3_000},
			{synapsefake.MovementCredit, deposit, 25_000},
		}, 0, 115_000},
		{"receiver of the returned transfer", e.savings, []movementKey{
			{synapsefake.MovementCredit, moved, 4_000},
			{synapsefake.MovementReturn, moved, -4_000},
		}, 0, 0},
		{"payee, credited net of the fee", e.payeeDep, []movementKey{{synapsefake.MovementCredit, payment, 9_850}}, 0, 9_850},
		{"fee node", e.feeNode, []movementKey{{synapsefake.MovementFee, payment, 150}}, 0, 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := fake.Statements(tc.node.ID)
			if len(list) != 1 {
				t.Fatalf("%d statements, want 1 (March): %+v", len(list), list)
			}
			s := list[0]
			want := synapsefake.Statement{NodeID: tc.node.ID, UserID: tc.node.UserID, Type: synapsefake.StatementMonthly,
				Status: synapsefake.StatementGenerated, Start: marchStart, End: marchEnd,
				OpeningBalanceCents: tc.opening, EndingBalanceCents: tc.ending}
			if diff := cmp.Diff(want, s, cmpopts.IgnoreFields(synapsefake.Statement{}, "ID", "Movements")); diff != "" {
				t.Errorf("statement (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.want, movementKeys(s.Movements)); diff != "" {
				t.Errorf("movements (-want +got):\n%s", diff)
			}
			reconcile(t, fake, s)
		})
	}
	if got := fake.Statements(e.bank.ID); len(got) != 0 {
		t.Errorf("ACH-US node got statements: %+v", got)
	}

	// The March statement ends where April begins: the late deposit is
	// April's, and an ad hoc statement of the month so far ends at the
	// node's balance.
	r := e.postStatement(t, e.checking, map[string]any{})
	if r.Status != http.StatusOK {
		t.Fatalf("POST statement: %d %s", r.Status, r.Raw)
	}
	fake.Advance(time.Second)
	list := fake.Statements(e.checking.ID)
	adhoc := list[len(list)-1]
	node, _ := fake.Node(e.checking.ID)
	if adhoc.Type != synapsefake.StatementOnDemand || adhoc.OpeningBalanceCents != 115_000 ||
		adhoc.EndingBalanceCents != node.BalanceCents || node.BalanceCents != 122_500 {
		t.Errorf("ad hoc statement %+v, node balance %d; want opening 115000, ending = balance = 122500", adhoc, node.BalanceCents)
	}
	if diff := cmp.Diff([]movementKey{{synapsefake.MovementCredit, late, 7_500}}, movementKeys(adhoc.Movements)); diff != "" {
		t.Errorf("April movements (-want +got):\n%s", diff)
	}
	reconcile(t, fake, adhoc)

	// The wire form of the March statement.
	march := list[0]
	r = testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodeStmtsPath(e.checking) + "/" + march.ID, Header: e.headers(e.sender.ID)})
	files := fake.URL() + "/statements/" + march.ID + "/statement."
	wantView := map[string]any{
		"success": true, "_id": march.ID,
		"client":     map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
		"date_start": float64(marchStart.UnixMilli()), "date_end": float64(marchEnd.UnixMilli()),
		"opening_balance": 0.0, "ending_balance": 1150.0,
		"node_id": e.checking.ID, "user_id": e.sender.ID,
		"type": "MONTHLY_STATEMENT", "status": "GENERATED",
		"urls":      map[string]any{"csv": files + "csv", "json": files + "json", "pdf": files + "pdf"},
		"client_id": fake.ClientID(), "is_active": true,
		"csv_url": files + "csv", "json_url": files + "json", "pdf_url": files + "pdf",
	}
	if r.Status != http.StatusOK {
		t.Fatalf("GET statement: %d %s", r.Status, r.Raw)
	}
	if diff := cmp.Diff(wantView, r.Body); diff != "" {
		t.Errorf("GET statement (-want +got):\n%s", diff)
	}

	// Months skipped by one long Advance get one statement each, and each
	// opens where the previous one ended.
	e.advanceTo(time.Date(2026, time.July, 20, 0, 0, 0, 0, time.UTC))
	var monthly []synapsefake.Statement
	for _, s := range fake.Statements(e.checking.ID) {
		if s.Type == synapsefake.StatementMonthly {
			monthly = append(monthly, s)
		}
	}
	if len(monthly) != 4 {
		t.Fatalf("%d monthly statements by July 20, want 4 (March to June)", len(monthly))
	}
	for i, s := range monthly {
		wantStart := time.Date(2026, time.March+time.Month(i), 1, 0, 0, 0, 0, time.UTC)
		if !s.Start.Equal(wantStart) || !s.End.Equal(wantStart.AddDate(0, 1, 0).Add(-time.Millisecond)) {
			t.Errorf("statement %d covers %v..%v, want the month from %v", i, s.Start, s.End, wantStart)
		}
		if i > 0 && s.OpeningBalanceCents != monthly[i-1].EndingBalanceCents {
			t.Errorf("statement %d opens at %d, the previous one ended at %d", i, s.OpeningBalanceCents, monthly[i-1].EndingBalanceCents)
		}
		reconcile(t, fake, s)
	}
	if got := monthly[3].EndingBalanceCents; got != node.BalanceCents {
		t.Errorf("June ends at %d, want the balance %d", got, node.BalanceCents)
	}
}

func TestMonthlyStatementsByNodeType(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t)
	fake := e.fake
	sub := stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Type: "SUBACCOUNT-US", Nickname: "Sub", BalanceCents: 500})
	ic := stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Type: "IC-DEPOSIT-US", Nickname: "IC"})
	wire := stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Type: "WIRE-US", Nickname: "Wire"})
	deleted := stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Nickname: "Closed"})
	r := testkit.Do(t, fake, testkit.Call{Method: "DELETE", Path: "/users/" + e.sender.ID + "/nodes/" + deleted.ID, Header: e.headers(e.sender.ID)})
	if r.Status != http.StatusOK {
		t.Fatalf("DELETE node: %d %s", r.Status, r.Raw)
	}
	e.advanceTo(time.Date(2026, time.April, 3, 0, 0, 0, 0, time.UTC))
	late := stmtNode(t, fake, e.sender.ID, synapsefake.NodeSeed{Nickname: "Opened in April"})
	e.advanceTo(time.Date(2026, time.April, 15, 0, 0, 0, 0, time.UTC))

	for _, tc := range []struct {
		name string
		node synapsefake.Node
		want int
	}{
		{"DEPOSIT-US", e.checking, 1},
		{"SUBACCOUNT-US", sub, 1},
		{"IC-DEPOSIT-US", ic, 1},
		{"ACH-US", e.bank, 0},
		{"WIRE-US", wire, 0},
		{"deleted", deleted, 0},
		{"opened after the period", late, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fake.Statements(tc.node.ID)
			if len(got) != tc.want {
				t.Fatalf("%d statements, want %d: %+v", len(got), tc.want, got)
			}
			for _, s := range got {
				reconcile(t, fake, s)
				if s.EndingBalanceCents != tc.node.BalanceCents {
					t.Errorf("ending %d, want the opening balance %d", s.EndingBalanceCents, tc.node.BalanceCents)
				}
			}
		})
	}
	// The 15th is reached exactly at 00:00 UTC; nothing more until May 15.
	e.advanceTo(time.Date(2026, time.May, 14, 23, 59, 59, 0, time.UTC))
	if got := len(fake.Statements(e.checking.ID)); got != 1 {
		t.Errorf("%d statements before May 15, want 1", got)
	}
	fake.Advance(time.Second)
	if got := len(fake.Statements(late.ID)); got != 1 {
		t.Errorf("node opened in April: %d statements on May 15, want 1", got)
	}
}

// stmtReceiver records the webhooks POSTed to it.
type stmtReceiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []receivedHook
}

type receivedHook struct {
	header http.Header
	body   map[string]any
}

func newStmtReceiver(t *testing.T) *stmtReceiver {
	rc := &stmtReceiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		data, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(data, &body)
		rc.mu.Lock()
		rc.got = append(rc.got, receivedHook{header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *stmtReceiver) received() []receivedHook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

func TestAdHocStatementWebhooks(t *testing.T) {
	t.Parallel()
	for _, immediate := range []bool{false, true} {
		t.Run(fmt.Sprintf("immediate=%v", immediate), func(t *testing.T) {
			t.Parallel()
			var opts []synapsefake.Option
			if immediate {
				opts = append(opts, synapsefake.WithImmediateStatements())
			}
			e := newStmtEnv(t, opts...)
			fake := e.fake
			rc := newStmtReceiver(t)
			fake.Advance(time.Hour)
			start := stmtStart.Add(-time.Hour)
			r := e.postStatement(t, e.checking, map[string]any{"date_start": start.UnixMilli(),
				"date_end": fake.Now().UnixMilli(), "webhook": rc.srv.URL + "/hooks"})
			if r.Status != http.StatusOK {
				t.Fatalf("POST statement: %d %s", r.Status, r.Raw)
			}
			id, _ := r.Body["_id"].(string)
			queued := map[string]any{
				"success": true, "_id": id,
				"client":     map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
				"date_start": float64(start.UnixMilli()), "date_end": float64(fake.Now().UnixMilli()),
				"opening_balance": nil, "ending_balance": nil,
				"node_id": e.checking.ID, "user_id": e.sender.ID,
				"type": "ONDEMAND_STATEMENT", "status": "QUEUED",
				"urls":      map[string]any{"csv": nil, "json": nil, "pdf": nil},
				"client_id": fake.ClientID(), "is_active": true,
				"csv_url": nil, "json_url": nil, "pdf_url": nil,
			}
			files := fake.URL() + "/statements/" + id + "/statement."
			generated := maps.Clone(queued)
			generated["status"], generated["opening_balance"], generated["ending_balance"] = "GENERATED", 0.0, 1000.0
			generated["urls"] = map[string]any{"csv": files + "csv", "json": files + "json", "pdf": files + "pdf"}
			generated["csv_url"], generated["json_url"], generated["pdf_url"] = files+"csv", files+"json", files+"pdf"

			wantAnswer := queued
			if immediate {
				wantAnswer = generated
			}
			if diff := cmp.Diff(wantAnswer, r.Body); diff != "" {
				t.Errorf("POST answer (-want +got):\n%s", diff)
			}
			get := func() map[string]any {
				r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodeStmtsPath(e.checking) + "/" + id, Header: e.headers(e.sender.ID)})
				return r.Body
			}
			if !immediate {
				if diff := cmp.Diff(queued, get()); diff != "" {
					t.Errorf("GET before the clock moves (-want +got):\n%s", diff)
				}
				fake.Flush()
				if got := rc.received(); len(got) != 1 {
					t.Fatalf("%d webhooks before generation, want 1 (QUEUED)", len(got))
				}
				fake.Advance(time.Millisecond)
			}
			fake.Flush()
			if diff := cmp.Diff(generated, get()); diff != "" {
				t.Errorf("GET after generation (-want +got):\n%s", diff)
			}

			got := rc.received()
			if len(got) != 2 {
				t.Fatalf("%d webhooks, want 2", len(got))
			}
			for i, want := range []map[string]any{queued, generated} {
				h := got[i]
				if !synapsefake.VerifySignature(h.header, id, fake.ClientID(), fake.ClientSecret()) {
					t.Errorf("webhook %d: bad signature headers %v", i, h.header)
				}
				rest, _ := h.body["_rest"].(map[string]any)
				wantRest := maps.Clone(want)
				delete(wantRest, "success")
				if diff := cmp.Diff(wantRest, rest); diff != "" {
					t.Errorf("webhook %d _rest (-want +got):\n%s", i, diff)
				}
				meta, _ := h.body["webhook_meta"].(map[string]any)
				if meta["function"] != "STATEMENTS|POST" || !cmp.Equal(h.body["_id"], map[string]any{"$oid": id}) {
					t.Errorf("webhook %d: webhook_meta %v, _id %v", i, meta, h.body["_id"])
				}
			}
			var statuses []string
			for _, w := range fake.Webhooks().All() {
				if w.Function != "STATEMENTS|POST" {
					continue
				}
				statuses = append(statuses, w.Status)
				if w.ObjectType != "STATEMENT" || w.ObjectID != id || len(w.Deliveries) != 1 ||
					w.Deliveries[0].URL != rc.srv.URL+"/hooks" || len(w.Deliveries[0].Attempts) != 1 || w.Deliveries[0].Attempts[0].Code != 200 {
					t.Errorf("captured webhook %s", w)
				}
			}
			if diff := cmp.Diff([]string{"QUEUED", "GENERATED"}, statuses); diff != "" {
				t.Errorf("captured statuses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAdHocStatementPeriod(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t, synapsefake.WithImmediateStatements())
	fake := e.fake
	// Checking opened with $1,000.00 at stmtStart; $25.00 leave it 1 ms later.
	payment := e.transfer(t, e.checking, e.savings, 25)
	fake.Advance(time.Hour)
	now := fake.Now()
	monthStart := time.Date(2026, time.March, 1, 0, 0, 0, 0, time.UTC)
	initial := movementKey{synapsefake.MovementInitial, "", 100_000}
	debit := movementKey{synapsefake.MovementDebit, payment, -2_500}
	for _, tc := range []struct {
		name            string
		body            map[string]any
		start, end      time.Time
		opening, ending int64
		movements       []movementKey
	}{
		{"default: the month so far", map[string]any{}, monthStart, now, 0, 97_500, []movementKey{initial, debit}},
		{"start only", map[string]any{"date_start": stmtStart.UnixMilli()}, stmtStart, now, 0, 97_500, []movementKey{initial, debit}},
		{"end is inclusive", map[string]any{"date_start": 0, "date_end": stmtStart.UnixMilli()}, time.UnixMilli(0).UTC(), stmtStart,
			0, 100_000, []movementKey{initial}},
		{"start is inclusive", map[string]any{"date_start": stmtStart.UnixMilli() + 1}, stmtStart.Add(time.Millisecond), now,
			100_000, 97_500, []movementKey{debit}},
		{"no movements", map[string]any{"date_start": stmtStart.UnixMilli() + 2}, stmtStart.Add(2 * time.Millisecond), now,
			97_500, 97_500, []movementKey{}},
		{"unknown fields are ignored", map[string]any{"date_end": now.UnixMilli(), "format": "pdf"}, monthStart, now,
			0, 97_500, []movementKey{initial, debit}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.postStatement(t, e.checking, tc.body)
			if r.Status != http.StatusOK {
				t.Fatalf("POST: %d %s", r.Status, r.Raw)
			}
			list := fake.Statements(e.checking.ID)
			s := list[len(list)-1]
			if s.ID != r.Body["_id"] || !s.Start.Equal(tc.start) || !s.End.Equal(tc.end) {
				t.Errorf("statement %s covers %v..%v, want %v..%v", s.ID, s.Start, s.End, tc.start, tc.end)
			}
			if r.Body["date_start"] != float64(tc.start.UnixMilli()) || r.Body["date_end"] != float64(tc.end.UnixMilli()) {
				t.Errorf("wire period %v..%v", r.Body["date_start"], r.Body["date_end"])
			}
			if s.OpeningBalanceCents != tc.opening || s.EndingBalanceCents != tc.ending {
				t.Errorf("balances %d..%d, want %d..%d", s.OpeningBalanceCents, s.EndingBalanceCents, tc.opening, tc.ending)
			}
			if diff := cmp.Diff(tc.movements, movementKeys(s.Movements)); diff != "" {
				t.Errorf("movements (-want +got):\n%s", diff)
			}
			reconcile(t, fake, s)
		})
	}
}

// TestAdHocStatementOfADay: date_start equal to date_end is that day, from
// midnight to the millisecond before the next midnight, both ends
// inclusive: money that moves at the next midnight is on the next day's
// statement only, so the statements of consecutive days never overlap.
func TestAdHocStatementOfADay(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t, synapsefake.WithImmediateStatements())
	march2 := time.Date(2026, time.March, 2, 0, 0, 0, 0, time.UTC)
	march3 := march2.Add(24 * time.Hour)
	e.fake.AdvanceTo(march3)
	e.fake.MustFund(t, e.checking.ID, 1) // at midnight exactly
	e.fake.Advance(time.Hour)
	for _, tc := range []struct {
		day        time.Time
		end        time.Time
		wantFunded bool
	}{
		{march2, march3.Add(-time.Millisecond), false},
		{march3, e.fake.Now(), true}, // today: up to now
	} {
		r := e.postStatement(t, e.checking, map[string]any{"date_start": tc.day.UnixMilli(), "date_end": tc.day.UnixMilli()})
		if r.Status != http.StatusOK {
			t.Fatalf("POST: %d %s", r.Status, r.Raw)
		}
		list := e.fake.Statements(e.checking.ID)
		st := list[len(list)-1]
		if !st.Start.Equal(tc.day) || !st.End.Equal(tc.end) {
			t.Errorf("the statement of %s covers %v..%v, want %v..%v", tc.day.Format(time.DateOnly), st.Start, st.End, tc.day, tc.end)
		}
		funded := slices.ContainsFunc(st.Movements, func(m synapsefake.Movement) bool { return m.Kind == synapsefake.MovementFunds })
		if funded != tc.wantFunded {
			t.Errorf("the statement of %s holds the midnight funds: %v, want %v", tc.day.Format(time.DateOnly), funded, tc.wantFunded)
		}
	}
}

func TestCreateStatementErrors(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t)
	fake := e.fake
	fake.Advance(time.Hour)
	now := fake.Now().UnixMilli()
	own := e.headers(e.sender.ID)
	for _, tc := range []struct {
		name      string
		node      synapsefake.Node
		header    map[string]string
		body      any
		status    int
		errorCode string
		code      string
	}{
		{"date_end in the future", e.checking, own, map[string]any{"date_end": now + 1}, 400, "200", "invalid_date_end"},
		{"start after end", e.checking, own, map[string]any{"date_start": now - 10, "date_end": now - 20}, 400, "200", "invalid_period"},
		{"negative start", e.checking, own, map[string]any{"date_start": -1}, 400, "200", "invalid_date_start"},
		{"date_start of the wrong type", e.checking, own, map[string]any{"date_start": "yesterday"}, 400, "200", "invalid_field_type"},
		{"fractional date", e.checking, own, map[string]any{"date_start": 1.5}, 400, "200", "invalid_field_type"},
		{"webhook not a URL", e.checking, own, map[string]any{"webhook": "not a url"}, 400, "200", "invalid_webhook"},
		{"webhook not http", e.checking, own, map[string]any{"webhook": "ftp://example.com/x"}, 400, "200", "invalid_webhook"},
		{"webhook of the wrong type", e.checking, own, map[string]any{"webhook": 7}, 400, "200", "invalid_field_type"},
		{"malformed JSON", e.checking, own, `{"date_start":`, 400, "200", "invalid_json"},
		{"body not an object", e.checking, own, `[]`, 400, "200", "invalid_json"},
		{"ACH-US node", e.bank, own, map[string]any{}, 409, "400", "statements_not_supported"},
		{"unknown node", synapsefake.Node{ID: "000000000000000000000000", UserID: e.sender.ID}, own, map[string]any{}, 404, "404", "unable_to_locate_node"},
		{"another user's node", synapsefake.Node{ID: e.payeeDep.ID, UserID: e.sender.ID}, own, map[string]any{}, 401, "300", "unauthorized_node"},
		{"another user's key", e.checking, e.headers(e.payee.ID), map[string]any{}, 401, "300", "unauthorized_user"},
		{"scope not granted", e.checking, e.headers(e.sender.ID, "STATEMENTS|GET", "STATEMENT|GET"), map[string]any{}, 401, "300", "scope_not_granted"},
		{"missing X-SP-USER-IP", e.checking, stmtWithout(own, "X-SP-USER-IP"), map[string]any{}, 400, "200", "missing_user_ip"},
		{"missing X-SP-USER", e.checking, stmtWithout(own, "X-SP-USER"), map[string]any{}, 400, "200", "missing_user_credentials"},
		{"wrong gateway", e.checking, stmtWith(own, "X-SP-GATEWAY", "a|b"), map[string]any{}, 401, "100", "invalid_client_credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			hooks := len(fake.Webhooks().All())
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodeStmtsPath(tc.node), Header: tc.header, Body: tc.body})
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			e.unchanged(t, before)
			if got := len(fake.Webhooks().All()); got != hooks {
				t.Errorf("%d webhooks captured, want %d", got, hooks)
			}
		})
	}
}

// snapshot is every statement of the env's nodes, for before/after checks.
func (e stmtEnv) snapshot() [][]synapsefake.Statement {
	var out [][]synapsefake.Statement
	for _, n := range []synapsefake.Node{e.checking, e.savings, e.bank, e.payeeDep, e.feeNode} {
		out = append(out, e.fake.Statements(n.ID))
	}
	return out
}

// unchanged fails the test if the env's statements differ from before.
func (e stmtEnv) unchanged(t *testing.T, before [][]synapsefake.Statement) {
	t.Helper()
	if diff := cmp.Diff(before, e.snapshot()); diff != "" {
		t.Errorf("statements changed (-before +after):\n%s", diff)
	}
}

// stmtWithout is a copy of headers h without key.
func stmtWithout(h map[string]string, key string) map[string]string {
	out := maps.Clone(h)
	delete(out, key)
	return out
}

// stmtWith is a copy of headers h with key set to value.
func stmtWith(h map[string]string, key, value string) map[string]string {
	out := maps.Clone(h)
	out[key] = value
	return out
}

// statementIDs lists the _id of each statement of a list answer.
func statementIDs(r testkit.Response) []string {
	var ids []string
	items, _ := r.Body["statements"].([]any)
	for _, it := range items {
		ids = append(ids, it.(map[string]any)["_id"].(string))
	}
	return ids
}

func TestListStatementsPaging(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t, synapsefake.WithImmediateStatements())
	fake := e.fake
	fake.Advance(time.Hour)
	for range 25 {
		if r := e.postStatement(t, e.checking, map[string]any{}); r.Status != http.StatusOK {
			t.Fatalf("POST: %d %s", r.Status, r.Raw)
		}
	}
	if r := e.postStatement(t, e.savings, map[string]any{}); r.Status != http.StatusOK {
		t.Fatalf("POST: %d %s", r.Status, r.Raw)
	}
	var checkingIDs []string // newest first
	for _, s := range fake.Statements(e.checking.ID) {
		checkingIDs = slices.Insert(checkingIDs, 0, s.ID)
	}
	userIDs := append([]string{fake.Statements(e.savings.ID)[0].ID}, checkingIDs...)

	for _, tc := range []struct {
		name      string
		path      string
		query     string
		limit     int
		page      int
		pageCount int
		count     int
		ids       []string
	}{
		{"node, first page", testkit.NodeStmtsPath(e.checking), "", 20, 1, 2, 25, checkingIDs[:20]},
		{"node, second page", testkit.NodeStmtsPath(e.checking), "?page=2", 20, 2, 2, 25, checkingIDs[20:]},
		{"node, past the end", testkit.NodeStmtsPath(e.checking), "?page=3", 20, 3, 2, 25, nil},
		{"node, per_page 10", testkit.NodeStmtsPath(e.checking), "?page=3&per_page=10", 10, 3, 3, 25, checkingIDs[20:]},
		{"node, per_page capped at 20", testkit.NodeStmtsPath(e.checking), "?per_page=500", 20, 1, 2, 25, checkingIDs[:20]},
		{"other node", testkit.NodeStmtsPath(e.savings), "", 20, 1, 1, 1, userIDs[:1]},
		{"node without statements", testkit.NodeStmtsPath(e.bank), "", 20, 1, 0, 0, nil},
		{"user, first page", "/users/" + e.sender.ID + "/statements", "", 20, 1, 2, 26, userIDs[:20]},
		{"user, second page", "/users/" + e.sender.ID + "/statements", "?page=2", 20, 2, 2, 26, userIDs[20:]},
		{"user without statements", "/users/" + e.payee.ID + "/statements", "", 20, 1, 0, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			uid := strings.Split(tc.path, "/")[2]
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path + tc.query, Header: e.headers(uid)})
			if r.Status != http.StatusOK {
				t.Fatalf("GET: %d %s", r.Status, r.Raw)
			}
			wrapper := maps.Clone(r.Body)
			delete(wrapper, "statements")
			want := map[string]any{"error_code": "0", "http_code": "200", "limit": float64(tc.limit), "page": float64(tc.page),
				"page_count": float64(tc.pageCount), "statements_count": float64(tc.count), "success": true}
			if diff := cmp.Diff(want, wrapper); diff != "" {
				t.Errorf("wrapper (-want +got):\n%s", diff)
			}
			if items, ok := r.Body["statements"].([]any); !ok || len(items) != len(tc.ids) {
				t.Fatalf("statements %v, want an array of %d", r.Body["statements"], len(tc.ids))
			}
			if diff := cmp.Diff(tc.ids, statementIDs(r)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListStatementsErrors(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t)
	fake := e.fake
	own := e.headers(e.sender.ID)
	userPath := "/users/" + e.sender.ID + "/statements"
	for _, tc := range []struct {
		name      string
		path      string
		header    map[string]string
		status    int
		errorCode string
		code      string
	}{
		{"page 0", testkit.NodeStmtsPath(e.checking) + "?page=0", own, 400, "200", "invalid_page"},
		{"page not a number", userPath + "?page=x", own, 400, "200", "invalid_page"},
		{"per_page 0", userPath + "?per_page=0", own, 400, "200", "invalid_per_page"},
		{"unknown node", "/users/" + e.sender.ID + "/nodes/000000000000000000000000/statements", own, 404, "404", "unable_to_locate_node"},
		{"another user's node", "/users/" + e.sender.ID + "/nodes/" + e.payeeDep.ID + "/statements", own, 401, "300", "unauthorized_node"},
		{"another user's statements", "/users/" + e.payee.ID + "/statements", own, 401, "300", "unauthorized_user"},
		{"node list without STATEMENTS|GET", testkit.NodeStmtsPath(e.checking), e.headers(e.sender.ID, "STATEMENT|GET", "STATEMENTS|POST"), 401, "300", "scope_not_granted"},
		{"user list without STATEMENTS|GET", userPath, e.headers(e.sender.ID, "STATEMENT|GET"), 401, "300", "scope_not_granted"},
		{"missing X-SP-USER-IP", userPath, stmtWithout(own, "X-SP-USER-IP"), 400, "200", "missing_user_ip"},
		{"expired key", userPath, testkit.UserHeaders(fake, "expired"), 401, "110", "invalid_oauth_key"},
		{"wrong method", userPath, own, 409, "410", "method_not_allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "GET"
			if tc.code == "method_not_allowed" {
				method = "DELETE"
			}
			before := e.snapshot()
			r := testkit.Do(t, fake, testkit.Call{Method: method, Path: tc.path, Header: tc.header})
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			e.unchanged(t, before)
		})
	}
}

func TestGetStatementErrors(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t, synapsefake.WithImmediateStatements())
	fake := e.fake
	fake.Advance(time.Hour)
	mine := e.postStatement(t, e.checking, map[string]any{}).Body["_id"].(string)
	onSavings := e.postStatement(t, e.savings, map[string]any{}).Body["_id"].(string)
	theirs := e.postStatement(t, e.payeeDep, map[string]any{}).Body["_id"].(string)
	own := e.headers(e.sender.ID)
	path := func(n synapsefake.Node, id string) string { return testkit.NodeStmtsPath(n) + "/" + id }
	for _, tc := range []struct {
		name      string
		path      string
		header    map[string]string
		status    int
		errorCode string
		code      string
	}{
		{"unknown statement", path(e.checking, "000000000000000000000000"), own, 404, "404", "unable_to_locate_statement"},
		{"statement of another node", path(e.checking, onSavings), own, 404, "404", "unable_to_locate_statement"},
		{"another user's statement", path(e.checking, theirs), own, 404, "404", "unable_to_locate_statement"},
		{"another user's node", "/users/" + e.sender.ID + "/nodes/" + e.payeeDep.ID + "/statements/" + theirs, own, 401, "300", "unauthorized_node"},
		{"another user's key", path(e.checking, mine), e.headers(e.payee.ID), 401, "300", "unauthorized_user"},
		{"scope not granted", path(e.checking, mine), e.headers(e.sender.ID, "STATEMENTS|GET"), 401, "300", "scope_not_granted"},
		{"missing X-SP-USER-IP", path(e.checking, mine), stmtWithout(own, "X-SP-USER-IP"), 400, "200", "missing_user_ip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: tc.path, Header: tc.header})
			testkit.WantError(t, r, tc.status, tc.errorCode, tc.code)
			e.unchanged(t, before)
		})
	}
	// STATEMENT|GET alone is enough for one statement.
	r := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: path(e.checking, mine), Header: e.headers(e.sender.ID, "STATEMENT|GET")})
	if r.Status != http.StatusOK || r.Body["_id"] != mine {
		t.Errorf("GET with STATEMENT|GET: %d %s", r.Status, r.Raw)
	}
}

// getFile fetches a statement file with no credentials.
func getFile(t *testing.T, fake *synapsefake.Server, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := fake.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func TestStatementFiles(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t, synapsefake.WithImmediateStatements(),
		synapsefake.WithClientName("Acme (Payments) \\ Ltd"))
	fake := e.fake
	// Sixty transfers make a table longer than one page.
	items := make([]map[string]any, 60)
	for i := range items {
		items[i] = map[string]any{
			"to":     map[string]any{"type": "DEPOSIT-US", "id": e.savings.ID},
			"amount": map[string]any{"amount": 1.25, "currency": "USD"},
			"extra":  map[string]any{"ip": "192.168.0.1", "note": fmt.Sprintf("Transfer %d, \"quoted\" (café)", i)},
		}
	}
	r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: "/users/" + e.sender.ID + "/nodes/" + e.checking.ID + "/batch-trans",
		Header: e.headers(e.sender.ID), Body: map[string]any{"transactions": items}})
	if r.Status != http.StatusOK || r.Body["trans_count"] != 60.0 {
		t.Fatalf("batch: %d %s", r.Status, r.Raw)
	}
	fake.Advance(time.Hour)
	r = e.postStatement(t, e.checking, map[string]any{})
	if r.Status != http.StatusOK {
		t.Fatalf("POST statement: %d %s", r.Status, r.Raw)
	}
	id := r.Body["_id"].(string)
	s := fake.Statements(e.checking.ID)[0]
	if len(s.Movements) != 61 || s.EndingBalanceCents != 100_000-60*125 {
		t.Fatalf("statement has %d movements, ending %d; want 61 and %d", len(s.Movements), s.EndingBalanceCents, 100_000-60*125)
	}
	urls := r.Body["urls"].(map[string]any)

	t.Run("csv", func(t *testing.T) {
		resp, body := getFile(t, fake, urls["csv"].(string), nil)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
			t.Fatalf("GET csv: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatalf("csv: %v", err)
		}
		want := [][]string{{"date", "transaction_id", "type", "description", "amount", "balance"}}
		for _, m := range s.Movements {
			want = append(want, []string{m.Date.Format("2006-01-02T15:04:05.000Z07:00"), m.TransactionID, m.Kind, m.Description,
				fmt.Sprintf("%.2f", float64(m.AmountCents)/100), fmt.Sprintf("%.2f", float64(m.BalanceCents)/100)})
		}
		if diff := cmp.Diff(want, rows); diff != "" {
			t.Errorf("csv (-want +got):\n%s", diff)
		}
		if rows[2][3] != `Transfer to Savings - Transfer 0, "quoted" (café)` || rows[2][4] != "-1.25" || rows[1][2] != "INITIAL" {
			t.Errorf("rows %q", rows[1:3])
		}
	})

	t.Run("json", func(t *testing.T) {
		resp, body := getFile(t, fake, urls["json"].(string), nil)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var got map[string]any
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("json: %v", err)
		}
		view := maps.Clone(r.Body)
		delete(view, "success")
		movements := make([]any, len(s.Movements))
		for i, m := range s.Movements {
			movements[i] = map[string]any{"date": float64(m.Date.UnixMilli()), "transaction_id": m.TransactionID, "type": m.Kind,
				"description": m.Description, "amount": float64(m.AmountCents) / 100, "balance": float64(m.BalanceCents) / 100}
		}
		if diff := cmp.Diff(map[string]any{"statement": view, "movements": movements}, got); diff != "" {
			t.Errorf("json (-want +got):\n%s", diff)
		}
	})

	t.Run("pdf", func(t *testing.T) {
		resp, pdf := getFile(t, fake, urls["pdf"].(string), nil)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" {
			t.Fatalf("GET pdf: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")) {
			t.Errorf("pdf starts with %q", pdf[:min(len(pdf), 16)])
		}
		if !bytes.HasSuffix(bytes.TrimRight(pdf, "\r\n"), []byte("%%EOF")) {
			t.Errorf("pdf ends with %q", pdf[max(0, len(pdf)-16):])
		}
		objects := checkXref(t, pdf)
		if pages := regexp.MustCompile(`/Type /Pages /Kids \[[^\]]*\] /Count (\d+)`).FindSubmatch(pdf); pages == nil || string(pages[1]) != "2" {
			t.Errorf("page tree %q, want 2 pages", pages)
		}
		if objects != 5+2*2 {
			t.Errorf("%d objects, want 9 (catalog, pages, 2 fonts, info, 2 pages and their contents)", objects)
		}

		if _, err := exec.LookPath("pdftotext"); err != nil {
			t.Skip("pdftotext not on PATH: install poppler-utils to check the text")
		}
		file := filepath.Join(t.TempDir(), "statement.pdf")
		if err := os.WriteFile(file, pdf, 0o600); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.Command("pdftotext", "-layout", file, "-")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Fatalf("pdftotext: %v\n%s", err, stderr.Bytes())
		}
		text := stdout.String()
		for _, want := range []string{
			"Acme (Payments) \\ Ltd",
			"Checking (DEPOSIT-US " + e.checking.ID + ")",
			"Sam Sender",
			"2026-03-01 00:00 to 2026-03-02 10:00 UTC",
			"Opening balance",
			"Ending balance",
			usd(s.EndingBalanceCents),
			usd(s.OpeningBalanceCents),
			s.Movements[1].TransactionID,
			"Transfer to Savings - Transfer 0",
			"Page 1 of 2",
			"Page 2 of 2",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("pdftotext output lacks %q:\n%s", want, text)
			}
		}
		if got := regexp.MustCompile(`Ending balance\s+` + regexp.QuoteMeta(usd(s.EndingBalanceCents))).FindString(text); got == "" {
			t.Errorf("no %q after Ending balance:\n%s", usd(s.EndingBalanceCents), text)
		}
		if n := strings.Count(text, usd(-125)); n != 60 {
			t.Errorf("%d rows of %s, want 60", n, usd(-125))
		}
	})

	t.Run("gateway headers are accepted", func(t *testing.T) {
		resp, _ := getFile(t, fake, fake.URL()+"/statements/"+id+"/statement.json", testkit.GatewayHeaders(fake))
		if resp.StatusCode != 200 {
			t.Errorf("status %d", resp.StatusCode)
		}
	})
}

// checkXref checks the cross-reference table: startxref points at it,
// every in-use entry points at "N 0 obj" and the trailer's Size matches. It
// returns the number of objects.
func checkXref(t *testing.T, pdf []byte) int {
	t.Helper()
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n?$`).FindSubmatch(pdf)
	if m == nil {
		t.Fatalf("no startxref at the end")
	}
	off, _ := strconv.Atoi(string(m[1]))
	rest := pdf[off:]
	head := regexp.MustCompile(`^xref\n0 (\d+)\n`).FindSubmatch(rest)
	if head == nil {
		t.Fatalf("startxref %d does not point at an xref table: %q", off, rest[:min(len(rest), 20)])
	}
	size, _ := strconv.Atoi(string(head[1]))
	entries := rest[len(head[0]):]
	entry := regexp.MustCompile(`^(\d{10}) (\d{5}) ([nf]) \n$`)
	for i := range size {
		if len(entries) < 20*(i+1) {
			t.Fatalf("xref table cut at entry %d", i)
		}
		e := entry.FindSubmatch(entries[20*i : 20*(i+1)])
		if e == nil {
			t.Fatalf("xref entry %d is %q", i, entries[20*i:20*(i+1)])
		}
		if i == 0 {
			if string(e[3]) != "f" || string(e[2]) != "65535" {
				t.Errorf("entry 0 is %q", e[0])
			}
			continue
		}
		o, _ := strconv.Atoi(string(e[1]))
		if string(e[3]) != "n" || o >= len(pdf) || !bytes.HasPrefix(pdf[o:], fmt.Appendf(nil, "%d 0 obj", i)) {
			t.Errorf("entry %d: offset %d does not point at object %d", i, o, i)
		}
	}
	if !regexp.MustCompile(fmt.Sprintf(`^trailer\n<< /Size %d /Root 1 0 R`, size)).Match(entries[20*size:]) {
		t.Errorf("trailer %q", entries[20*size:min(len(entries), 20*size+40)])
	}
	return size - 1
}

func TestStatementFileErrors(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t)
	fake := e.fake
	fake.Advance(time.Hour)
	queued := e.postStatement(t, e.checking, map[string]any{}).Body["_id"].(string)
	fake.Advance(time.Second)
	done := e.postStatement(t, e.savings, map[string]any{}).Body["_id"].(string)
	fake.Advance(time.Second)
	stillQueued := e.postStatement(t, e.savings, map[string]any{}).Body["_id"].(string)
	base := fake.URL() + "/statements/"
	for _, tc := range []struct {
		name      string
		url       string
		header    map[string]string
		status    int
		errorCode string
		code      string
	}{
		{"unknown statement", base + "000000000000000000000000/statement.pdf", nil, 404, "404", "unable_to_locate_statement"},
		{"queued statement", base + stillQueued + "/statement.csv", nil, 404, "404", "unable_to_locate_statement"},
		{"unknown file", base + done + "/statement.xml", nil, 404, "404", "unable_to_locate_file"},
		{"wrong gateway", base + done + "/statement.pdf", map[string]string{"X-SP-GATEWAY": "a|b"}, 401, "100", "invalid_client_credentials"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			resp, body := getFile(t, fake, tc.url, tc.header)
			e.unchanged(t, before)
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("body %q: %v", body, err)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			testkit.WantError(t, testkit.Response{Status: resp.StatusCode, Raw: body, Body: got}, tc.status, tc.errorCode, tc.code)
		})
	}
	for _, id := range []string{queued, done} {
		for _, f := range []string{"csv", "json", "pdf"} {
			if resp, _ := getFile(t, fake, base+id+"/statement."+f, nil); resp.StatusCode != 200 {
				t.Errorf("%s statement.%s: %d", id, f, resp.StatusCode)
			}
		}
	}
}

func TestQueuedStatementSurvivesReset(t *testing.T) {
	t.Parallel()
	e := newStmtEnv(t)
	fake := e.fake
	if r := e.postStatement(t, e.checking, map[string]any{}); r.Status != http.StatusOK {
		t.Fatalf("POST: %d %s", r.Status, r.Raw)
	}
	fake.Reset()
	fake.Advance(time.Second) // the queued statement's node is gone: nothing to generate

	u := fake.MustAddUser(t, synapsefake.UserSeed{Fingerprint: testkit.TestFingerprint})
	n := stmtNode(t, fake, u.ID, synapsefake.NodeSeed{BalanceCents: 4_200})
	if r := e.postStatement(t, n, map[string]any{}); r.Status != http.StatusOK {
		t.Fatalf("POST after Reset: %d %s", r.Status, r.Raw)
	}
	fake.Advance(time.Second)
	list := fake.Statements(n.ID)
	if len(list) != 1 || list[0].Status != synapsefake.StatementGenerated || list[0].EndingBalanceCents != 4_200 {
		t.Errorf("statements after Reset: %+v", list)
	}
}

// TestStatementOlderFlatShape reads a statement in the older flat shape the
// provider's integration suites expected (client_id, is_active, csv_url,
// json_url, pdf_url) beside today's client{} and urls{}, in the answer to
// POST, GET and the lists, queued and generated.
func TestStatementOlderFlatShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		opts      []synapsefake.Option
		generated bool
	}{
		{"queued", nil, false},
		{"generated", []synapsefake.Option{synapsefake.WithImmediateStatements()}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake := synapsefake.NewServer(t, tc.opts...)
			fx := testkit.NewFixture(t, fake, 100_00)
			r := testkit.Do(t, fake, testkit.Call{Method: "POST", Path: testkit.NodeStmtsPath(fx.Node), Header: fx.Headers, Body: map[string]any{}})
			if r.Status != http.StatusOK {
				t.Fatalf("POST statement: %d %s", r.Status, r.Raw)
			}
			id, _ := r.Body["_id"].(string)
			var csvURL, jsonURL, pdfURL any
			if tc.generated {
				files := fake.URL() + "/statements/" + id + "/statement."
				csvURL, jsonURL, pdfURL = files+"csv", files+"json", files+"pdf"
			}
			want := map[string]any{"client_id": fake.ClientID(), "is_active": true, "csv_url": csvURL, "json_url": jsonURL, "pdf_url": pdfURL,
				"client": map[string]any{"id": fake.ClientID(), "name": fake.ClientName()},
				"urls":   map[string]any{"csv": csvURL, "json": jsonURL, "pdf": pdfURL}}
			userList := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users/" + fx.User.ID + "/statements", Header: fx.Headers})
			nodeList := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodeStmtsPath(fx.Node), Header: fx.Headers})
			get := testkit.Do(t, fake, testkit.Call{Method: "GET", Path: testkit.NodeStmtsPath(fx.Node) + "/" + id, Header: fx.Headers})
			answers := map[string]map[string]any{"POST": r.Body, "GET": get.Body}
			for name, list := range map[string]testkit.Response{"user list": userList, "node list": nodeList} {
				items, _ := list.Body["statements"].([]any)
				if len(items) != 1 {
					t.Fatalf("%s: %d %s, want one statement", name, list.Status, list.Raw)
				}
				answers[name] = items[0].(map[string]any)
			}
			for name, body := range answers {
				got := map[string]any{}
				for k := range want {
					got[k] = body[k]
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", name, diff)
				}
				for _, k := range []string{"client_id", "is_active", "csv_url", "json_url", "pdf_url"} {
					if _, ok := body[k]; !ok {
						t.Errorf("%s: no %s", name, k)
					}
				}
			}
		})
	}
}
