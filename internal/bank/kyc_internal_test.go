package bank

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestSandboxOutcome: a review's outcome follows the sandbox's documented
// test values (docs/fidelity.md, "KYC"); every other value passes.
func TestSandboxOutcome(t *testing.T) {
	for _, tc := range []struct {
		list, typ, value, want string
	}{
		{virtualDocs, "SSN", "2222", DocValid},
		{virtualDocs, "SSN", "111-11-2222", DocValid},
		{virtualDocs, "SSN", "1111", DocInvalid},
		{virtualDocs, "SSN", "777-77-1111", DocInvalid},
		{virtualDocs, "SSN", "123459000", DocInvalid},  // realtime SSN code: invalid_tin|not_issued
		{virtualDocs, "TIN", "12-3456666", DocInvalid}, // dmf
		{virtualDocs, "SSN", "123-45-6789", DocValid},
		{virtualDocs, "SSN", "111", DocValid}, // fewer than four digits: nothing to match
		{physicalDocs, "GOVT_ID", "data:image/invalid;base64,SUQs==", DocInvalid},
		{physicalDocs, "GOVT_ID", "data:image/png;base64,SUQs==", DocValid},
		{socialDocs, "FACEBOOK", "https://www.facebook.com/invalid", DocInvalid},
		{socialDocs, "LINKEDIN", "https://www.linkedin.com/invalid/", DocInvalid},
		{socialDocs, "TWITTER", "https://twitter.com/valid", DocValid},
		{socialDocs, "EMAIL", "Invalid@Gmail.com", DocInvalid},
		{socialDocs, "EMAIL", "ann@example.com", DocValid},
		{socialDocs, "IP", "255.255.255.0", DocInvalid},
		{socialDocs, "PHONE_NUMBER", "541-754-3010", DocInvalid},
		{socialDocs, "PHONE_NUMBER", "901.111.1111", DocValid},
		{socialDocs, "ADDRESS", "123 Fail Address", DocInvalid},
		{socialDocs, "DATE", "", DocValid},
	} {
		if got := sandboxOutcome(tc.list, tc.typ, tc.value); got != tc.want {
			t.Errorf("sandboxOutcome(%s, %s, %q) = %s, want %s", tc.list, tc.typ, tc.value, got, tc.want)
		}
	}
}

// TestPermissionFromDocuments: a base document's permission and scope, and
// the user's doc_status, are computed from the sub-documents' statuses.
func TestPermissionFromDocuments(t *testing.T) {
	for _, tc := range []struct {
		name       string
		docs       []SubDocumentSeed
		permission Permission
		scope      string
		docStatus  docStatus
	}{
		{"none", nil, PermissionUnverified, "", docStatus{DocMissing, DocMissing}},
		{"social documents only (the 2017 cassette)", []SubDocumentSeed{{KindSocial, "EMAIL", "a@b.c", "VALID"}, {KindSocial, "IP", "::1", "VALID"}},
			PermissionUnverified, ScopeUnverified, docStatus{DocMissing, DocMissing}},
		{"in review", []SubDocumentSeed{{KindVirtual, "SSN", "2222", "REVIEWING"}, {KindPhysical, "GOVT_ID", "x", "REVIEWING"}},
			PermissionUnverified, ScopeUnverified, docStatus{DocMissing, DocMissing}},
		{"a valid SSN alone", []SubDocumentSeed{{KindVirtual, "SSN", "2222", "VALID"}},
			PermissionReceive, ScopeReceive, docStatus{DocMissing, DocValid}},
		{"a valid SSN, the ID in review", []SubDocumentSeed{{KindVirtual, "SSN", "2222", "VALID"}, {KindPhysical, "GOVT_ID", "x", "REVIEWING"}},
			PermissionReceive, ScopeReceive, docStatus{DocMissing, DocValid}},
		{"a valid SSN and ID", []SubDocumentSeed{{KindVirtual, "SSN", "2222", "VALID"}, {KindPhysical, "GOVT_ID", "x", "VALID"}},
			PermissionSendAndReceive, ScopeSendAndReceive, docStatus{DocValid, DocValid}},
		{"the SSN refused", []SubDocumentSeed{{KindVirtual, "SSN", "1111", "INVALID"}, {KindPhysical, "GOVT_ID", "x", "VALID"}},
			PermissionUnverified, ScopeUnverified, docStatus{DocValid, DocInvalid}},
		{"blacklisted", []SubDocumentSeed{{KindVirtual, "SSN", "1111", "BLACKLIST"}},
			PermissionUnverified, ScopeUnverified, docStatus{DocMissing, DocInvalid}},
		{"one valid SSN among refused ones", []SubDocumentSeed{{KindVirtual, "SSN", "1111", "INVALID"}, {KindVirtual, "PASSPORT", "x", "VALID"}},
			PermissionReceive, ScopeReceive, docStatus{DocMissing, DocValid}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBank(testBankOptions{})
			u := mustAddUser(t, b, UserSeed{Documents: tc.docs})
			if u.Permission != tc.permission {
				t.Errorf("permission %s, want %s", u.Permission, tc.permission)
			}
			var scope string
			var statuses, want []string
			for _, d := range u.Documents {
				scope = d.PermissionScope
				for _, sd := range d.SubDocuments {
					statuses = append(statuses, sd.Kind+" "+sd.Type+" "+sd.Status)
				}
			}
			for _, d := range tc.docs {
				st, _ := ParseDocStatus(d.Status)
				want = append(want, d.Kind+" "+d.Type+" "+st)
			}
			if scope != tc.scope {
				t.Errorf("permission_scope %q, want %q", scope, tc.scope)
			}
			if diff := cmp.Diff(want, statuses, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("sub-documents filed (-want +got):\n%s", diff)
			}
			v, _ := b.GetUser(u.ID, false)
			if v.DocStatus != tc.docStatus {
				t.Errorf("doc_status %+v, want %+v", v.DocStatus, tc.docStatus)
			}
		})
	}
}

// userEvents are the functions and permissions of the user events the
// bank published after the first skip.
func userEvents(t *testing.T, b *Bank, skip int) []string {
	t.Helper()
	var out []string
	for _, ev := range b.store.hooks.(*keptEvents).events[skip:] {
		if ev.obj == nil || ev.obj.typ != "USER" {
			continue
		}
		body := ev.obj.View()
		var u struct {
			Permission string `json:"permission"`
			Documents  []struct {
				Virtual []struct{ Status string } `json:"virtual_docs"`
			} `json:"documents"`
		}
		if err := json.Unmarshal(body, &u); err != nil {
			t.Fatal(err)
		}
		ssn := ""
		if len(u.Documents) > 0 && len(u.Documents[0].Virtual) > 0 {
			ssn = u.Documents[0].Virtual[0].Status
		}
		out = append(out, fmt.Sprintf("%s %s %s %s", ev.Function(), FmtInstant(time.UnixMilli(ev.at)), u.Permission, ssn))
	}
	return out
}

// TestReviewOnTheClock: documents filed go under review; the review comes
// due KYCReview later and sends one USER|PATCH with the user as it is after
// it; the permission history records each step.
func TestReviewOnTheClock(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.Cfg.KYCReview = 20 * time.Second
	b.store.kycDelay = b.Cfg.KYCReview
	start := b.Now()
	u := mustAddUser(t, b, UserSeed{Documents: []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Value: "2222"}, {Kind: KindPhysical, Type: "GOVT_ID", Value: "x"}}})
	for _, d := range u.Documents[0].SubDocuments {
		if d.Status != DocReviewing || !d.ReviewAt.Equal(start.Add(20*time.Second)) {
			t.Errorf("%s: %s due %v, want in review due 20 s later", d.Type, d.Status, d.ReviewAt)
		}
	}
	advance(b, 19*time.Second)
	if got, _ := b.User(u.ID); got.Permission != PermissionUnverified {
		t.Fatalf("before the review is due: %s, want UNVERIFIED", got.Permission)
	}
	advance(b, time.Second)
	got, _ := b.User(u.ID)
	if got.Permission != PermissionSendAndReceive {
		t.Fatalf("after the review: %s, want SEND-AND-RECEIVE", got.Permission)
	}
	at := start.Add(20 * time.Second)
	want := []PermissionChange{{start, PermissionUnverified, PermissionByCreation}, {at, PermissionSendAndReceive, PermissionByReview}}
	if diff := cmp.Diff(want, got.PermissionHistory); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
	wantEvents := []string{
		"USERS|POST " + FmtInstant(start) + " UNVERIFIED SUBMITTED|REVIEWING",
		"USER|PATCH " + FmtInstant(at) + " SEND-AND-RECEIVE SUBMITTED|VALID",
	}
	if diff := cmp.Diff(wantEvents, userEvents(t, b, 0)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if b.DueAt() != 1<<63-1 {
		t.Errorf("due at %d after the last review, want nothing due", b.DueAt())
	}
}

// TestReviewOrderAcrossUsers: reviews come due in order, those of one
// instant together, one event per user.
func TestReviewOrderAcrossUsers(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.store.kycDelay = time.Minute
	ssn := func(v string) []SubDocumentSeed { return []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Value: v}} }
	first := mustAddUser(t, b, UserSeed{Documents: ssn("2222")})
	advance(b, 10*time.Second)
	second := mustAddUser(t, b, UserSeed{Documents: ssn("1111")})
	skip := published(b)
	advance(b, time.Hour)
	got := userEvents(t, b, skip)
	want := []string{
		"USER|PATCH " + FmtInstant(DefaultStartTime().Add(time.Minute)) + " RECEIVE SUBMITTED|VALID",
		"USER|PATCH " + FmtInstant(DefaultStartTime().Add(70*time.Second)) + " UNVERIFIED SUBMITTED|INVALID",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	for id, p := range map[string]Permission{first.ID: PermissionReceive, second.ID: PermissionUnverified} {
		if u, _ := b.User(id); u.Permission != p {
			t.Errorf("user %s: %s, want %s", id, u.Permission, p)
		}
	}
}

// TestManualReview: with KYCManual nothing is reviewed by the clock;
// ReviewDocument and ReviewDocuments do it, and refuse what they cannot do
// without changing anything.
func TestManualReview(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.store.kycManual = true
	u := mustAddUser(t, b, UserSeed{Documents: []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Value: "2222"}, {Kind: KindPhysical, Type: "GOVT_ID", Value: "x"}, {Kind: KindSocial, Type: "PHONE_NUMBER_2FA", Value: "901.111.1111"}}})
	advance(b, 365*24*time.Hour)
	u, _ = b.User(u.ID)
	var ssn, govt string
	for _, d := range u.Documents[0].SubDocuments {
		want := DocReviewing
		if d.Type == "PHONE_NUMBER_2FA" {
			want = DocMFAPending
		}
		if d.Status != want || !d.ReviewAt.IsZero() {
			t.Errorf("%s: %s due %v a year later, want %s with no review due", d.Type, d.Status, d.ReviewAt, want)
		}
		switch d.Type {
		case "SSN":
			ssn = d.ID
		case "GOVT_ID":
			govt = d.ID
		}
	}
	other := mustAddUser(t, b, UserSeed{})
	before := published(b)
	for _, tc := range []struct {
		name, user, doc, status, code string
	}{
		{"unknown user", "0123456789abcdef01234567", ssn, "VALID", "unable_to_locate_user"},
		{"unknown document", u.ID, "nope", "VALID", "unable_to_locate_document"},
		{"another user's document", other.ID, ssn, "VALID", "unable_to_locate_document"},
		{"unknown status", u.ID, ssn, "APPROVED", "invalid_status"},
		{"empty status", u.ID, ssn, "", "invalid_status"},
	} {
		err := b.ReviewDocument(tc.user, tc.doc, tc.status)
		if err == nil || !containsCode(err, tc.code) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	if published(b) != before {
		t.Fatalf("refusals published %d events", published(b)-before)
	}
	if err := b.ReviewDocument(u.ID, ssn, "valid"); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.User(u.ID); got.Permission != PermissionReceive {
		t.Errorf("SSN valid: %s, want RECEIVE", got.Permission)
	}
	if err := b.ReviewDocument(u.ID, ssn, "SUBMITTED|VALID"); err != nil || published(b) != before+1 {
		t.Errorf("the same status again: %v, %d events, want nothing new", err, published(b)-before)
	}
	if err := b.ReviewDocuments(u.ID, "VALID"); err != nil {
		t.Fatal(err)
	}
	got, _ := b.User(u.ID)
	if got.Permission != PermissionSendAndReceive || published(b) != before+2 {
		t.Errorf("all valid: %s after %d events, want SEND-AND-RECEIVE after 2", got.Permission, published(b)-before)
	}
	for _, d := range got.Documents[0].SubDocuments {
		if d.Status != DocValid {
			t.Errorf("%s %s: %s, want VALID", d.Type, d.ID, d.Status)
		}
	}
	// Documents never lower a permission: the ID refused, the user keeps
	// SEND-AND-RECEIVE, the base document's scope shows what is left.
	if err := b.ReviewDocument(u.ID, govt, "INVALID"); err != nil {
		t.Fatal(err)
	}
	got, _ = b.User(u.ID)
	if got.Permission != PermissionSendAndReceive || got.Documents[0].PermissionScope != ScopeReceive {
		t.Errorf("ID refused after verification: %s, scope %s; want SEND-AND-RECEIVE kept, scope RECEIVE", got.Permission, got.Documents[0].PermissionScope)
	}
	// A review puts a document back in review when asked; the clock does
	// not review it while reviews are manual.
	if err := b.ReviewDocument(u.ID, govt, "REVIEWING"); err != nil {
		t.Fatal(err)
	}
	advance(b, time.Hour)
	if got, _ := b.User(u.ID); got.Documents[0].SubDocuments[0].Status != DocReviewing {
		t.Errorf("back in review: %s", got.Documents[0].SubDocuments[0].Status)
	}
}

// containsCode reports whether err's text names code.
func containsCode(err error, code string) bool {
	return err != nil && code != "" && strings.Contains(err.Error(), code)
}

// TestReviewKeepsLocksAndPlatformPermissions: a review never lifts a
// LOCKED user, and a seeded permission holds until documents raise it.
func TestReviewKeepsLocksAndPlatformPermissions(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.store.kycManual = true
	docs := []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Value: "2222"}, {Kind: KindPhysical, Type: "GOVT_ID", Value: "x"}}
	locked := mustAddUser(t, b, UserSeed{Permission: PermissionLocked, Documents: docs})
	if err := b.ReviewDocuments(locked.ID, "VALID"); err != nil {
		t.Fatal(err)
	}
	if u, _ := b.User(locked.ID); u.Permission != PermissionLocked {
		t.Errorf("locked user after a valid review: %s, want LOCKED", u.Permission)
	}
	seeded := mustAddUser(t, b, UserSeed{Permission: PermissionSendAndReceive})
	if u, _ := b.User(seeded.ID); u.Permission != PermissionSendAndReceive || len(u.Documents) != 0 {
		t.Errorf("seeded SEND-AND-RECEIVE without documents: %s with %d documents", u.Permission, len(u.Documents))
	}
	if _, err := b.AddUser(UserSeed{Documents: []SubDocumentSeed{{Kind: "bank", Type: "SSN"}}}); err == nil || !containsCode(err, "invalid_document_kind") {
		t.Errorf("a seed of an unknown kind: %v", err)
	}
	if _, err := b.AddUser(UserSeed{Documents: []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Status: "OK"}}}); err == nil || !containsCode(err, "invalid_status") {
		t.Errorf("a seed of an unknown status: %v", err)
	}
}

// TestReceiveSenderIsHeld: a RECEIVE user's transfer is created, then
// QUEUED-BY-SYNAPSE for its KYC; when its documents make it
// SEND-AND-RECEIVE the transfer goes on. An UNVERIFIED sender's transfer
// goes on at once, as the sandbox let it.
func TestReceiveSenderIsHeld(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.store.kycManual = true
	send := func(userID string) *txRecord {
		t.Helper()
		from := mustAddNode(t, b, userID, NodeSeed{BalanceCents: 10000})
		to := mustAddNode(t, b, mustAddUser(t, b, UserSeed{}).ID, NodeSeed{})
		var req CreateTxRequest
		if err := json.Unmarshal(fmt.Appendf(nil, `{"to":{"type":"DEPOSIT-US","id":%q},"amount":{"amount":10,"currency":"USD"},"extra":{"ip":"1.1.1.1"}}`, to.ID), &req); err != nil {
			t.Fatal(err)
		}
		var v TxView
		if err := b.CreateTxInto(b.Now(), userID, from.ID, req, false, nil, &v); err != nil {
			t.Fatal(err)
		}
		return b.store.txs[v.ID]
	}
	unverified := mustAddUser(t, b, UserSeed{})
	if tx := send(unverified.ID); tx.status != StatusCreated {
		t.Errorf("UNVERIFIED sender: %s, want CREATED", tx.status)
	}
	u := mustAddUser(t, b, UserSeed{Documents: []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Value: "2222", Status: "VALID"}, {Kind: KindPhysical, Type: "GOVT_ID", Value: "x"}}})
	if u.Permission != PermissionReceive {
		t.Fatalf("seeded: %s, want RECEIVE", u.Permission)
	}
	tx := send(u.ID)
	if tx.status != StatusQueuedBySynapse || tx.code != KYCHoldCode {
		t.Fatalf("RECEIVE sender: %s %s, want QUEUED-BY-SYNAPSE %s", tx.status, tx.code, KYCHoldCode)
	}
	if err := b.ReviewDocuments(u.ID, "VALID"); err != nil {
		t.Fatal(err)
	}
	if tx.status == StatusQueuedBySynapse {
		t.Errorf("after verification: still %s, want released", tx.status)
	}
	last := tx.timeline[len(tx.timeline)-1]
	if tx.timeline[1].Status != StatusQueuedBySynapse || tx.timeline[2].Status != StatusCreated || last.Status == StatusQueuedBySynapse {
		t.Errorf("timeline %+v", tx.timeline)
	}
}

// TestReviewsSurviveSnapshot: a review pending on the clock is saved with
// the state and still comes due after a restore.
func TestReviewsSurviveSnapshot(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.store.kycDelay = time.Hour
	u := mustAddUser(t, b, UserSeed{Documents: []SubDocumentSeed{{Kind: KindVirtual, Type: "SSN", Value: "2222"}}})
	var doc bytes.Buffer
	if err := snapshot(b, &doc); err != nil {
		t.Fatal(err)
	}
	c := newTestBank(testBankOptions{})
	c.store.kycDelay = time.Hour
	if err := restore(c, &doc); err != nil {
		t.Fatal(err)
	}
	advance(c, time.Hour)
	if got, _ := c.User(u.ID); got.Permission != PermissionReceive {
		t.Errorf("restored, an hour later: %s, want RECEIVE", got.Permission)
	}
}

// TestRefiledDocumentsAreReviewed: a sub-document refiled in place (a
// derived social document whose base field changed, a sub-document sent
// again with its id) keeps its id and its new review comes due under it.
func TestRefiledDocumentsAreReviewed(t *testing.T) {
	b := newTestBank(testBankOptions{})
	b.store.kycDelay = time.Minute
	u := mustAddUser(t, b, UserSeed{})
	patch := func(body string) {
		t.Helper()
		var req PatchUserRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		if err := req.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := b.PatchUser(b.Now(), u.ID, req, false, func(...BrokenRule) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	patch(`{"documents":[{"name":"Ann","email":"ann@example.com"}]}`)
	advance(b, time.Minute)
	got, _ := b.User(u.ID)
	base, first := got.Documents[0].ID, got.Documents[0].SubDocuments[0]
	if first.Type != "EMAIL" || first.Status != DocValid {
		t.Fatalf("first filing after its review: %+v", first)
	}
	patch(`{"documents":[{"id":"` + base + `","email":"invalid@gmail.com"}]}`) // the sandbox's failing email
	advance(b, time.Minute)
	got, _ = b.User(u.ID)
	again := got.Documents[0].SubDocuments[0]
	if again.ID != first.ID || again.Status != DocInvalid || !again.ReviewAt.IsZero() {
		t.Errorf("refiled EMAIL a review later: %+v, want id %s SUBMITTED|INVALID with no review due", again, first.ID)
	}
	if len(b.store.kycReviews) != 0 {
		t.Errorf("%d reviews left in the queue", len(b.store.kycReviews))
	}
}
