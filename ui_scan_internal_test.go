package synapsefake

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestUITransactionsScanIsBounded: a status filter, which no index
// answers, looks at no more than uiScanLimit transactions under the lock;
// past them the page says that more may match. The user's and the node's
// filters read their indexes and count exactly.
func TestUITransactionsScanIsBounded(t *testing.T) {
	w := newFuzzWorld(t) // its one transaction, the oldest, is CREATED
	s, st := w.s, w.s.core.store
	st.lock()
	for range uiScanLimit + 10 {
		tx, err := st.createTx(s.core.Now(), w.user, w.node, fuzzTx(w.peer, 0.01), true, nil)
		if err != nil {
			st.unlock()
			t.Fatal(err)
		}
		if err := st.cancel(tx, s.core.Now(), ""); err != nil {
			st.unlock()
			t.Fatal(err)
		}
	}
	st.unlock()
	total := uiScanLimit + 11
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"status=CREATED", "newest 0 shown; more match"},
		{"status=CANCELED&limit=5", "newest 5 shown; more match"},
		{"limit=5", "newest 5 of " + itoa(total) + " shown"},
		{"node=" + w.node + "&limit=5", "newest 5 of " + itoa(total) + " shown"},
		{"user=" + w.other + "&limit=5", "newest 5 of " + itoa(total) + " shown"},
		{"status=SETTLED&node=" + w.peer, "newest 0 shown; more match"},
		// A name is no index either.
		{"node=no+such+nickname", "newest 0 shown; more match"},
		{"user=no+such+name", "newest 0 shown; more match"},
		{"node=" + w.node + "&user=no+such+name", "newest 0 shown; more match"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/_fake/ui/transactions?"+tc.query, nil))
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), tc.want) {
				i := strings.Index(rec.Body.String(), `class="count`)
				t.Errorf("%d; want %q in the page; its count reads %.120s", rec.Code, tc.want, rec.Body.String()[max(i, 0):])
			}
		})
	}
}

// TestUIOverviewNameScanIsBounded: a name filter on the overview looks at
// no more than uiScanLimit users; past them the page says that more may
// match.
func TestUIOverviewNameScanIsBounded(t *testing.T) {
	s := New(WithoutWebhookDelivery())
	t.Cleanup(s.Close)
	s.MustAddUser(t, UserSeed{LegalNames: []string{"Oldest Ozymandias"}})
	for range uiScanLimit {
		s.MustAddUser(t, UserSeed{LegalNames: []string{"Plain Person"}})
	}
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"name=ozymandias", "newest 0 shown; more match"},
		{"name=plain&limit=5", "newest 5 shown; more match"},
		{"limit=5", "newest 5 of " + itoa(uiScanLimit+1) + " shown"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/_fake/ui/?"+tc.query, nil))
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), tc.want) {
				i := strings.Index(rec.Body.String(), `class="count`)
				t.Errorf("%d; want %q in the page; its count reads %.120s", rec.Code, tc.want, rec.Body.String()[max(i, 0):])
			}
		})
	}
}
