package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// uiSubDoc is the row of a user's pane that shows the sub-document with
// the id.
func uiSubDoc(t *testing.T, pane, id string) string {
	t.Helper()
	row := uiRow(pane, `<tr id="subdoc-`+id+`"`)
	if row == "" {
		t.Fatalf("the pane has no row for sub-document %s: %.1500s", id, pane)
	}
	return row
}

// TestDashboardUserDocuments: a user's detail shows its base documents,
// each sub-document with its kind, type and status, when its review falls
// due, and the review moves it has not had (Valid, Invalid) posting the
// control API's review route; and the user's permission history. A review
// through that route changes what the pane shows: the status, the
// buttons, the permission and its history; documents never lower the
// permission.
func TestDashboardUserDocuments(t *testing.T) {
	fake := synapsefake.NewServer(t, synapsefake.WithKYCReview(time.Hour), synapsefake.WithoutWebhookDelivery())
	u := fake.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Kay Why"}, Documents: []synapsefake.SubDocumentSeed{
		{Kind: synapsefake.KindVirtual, Type: "SSN", Value: "2222"},                                                 // under review, due in an hour
		{Kind: synapsefake.KindPhysical, Type: "GOVT_ID", Value: "data:image/gif;base64,SUQs", Status: "REVIEWING"}, // no review scheduled
	}})
	if len(u.Documents) != 1 || len(u.Documents[0].SubDocuments) != 2 {
		t.Fatalf("documents %+v", u.Documents)
	}
	doc := u.Documents[0]
	var ssn, govt string
	for _, sd := range doc.SubDocuments {
		switch sd.Type {
		case "SSN":
			ssn = sd.ID
		case "GOVT_ID":
			govt = sd.ID
		}
	}
	review := func(id string) string { return `data-post="/_fake/users/` + u.ID + `/documents/` + id + `/review"` }
	pane := func() string {
		t.Helper()
		p := uiPane(testkit.UIPage(t, fake, "/_fake/ui/?open="+u.ID))
		if !strings.Contains(p, `data-open="`+u.ID+`"`) {
			t.Fatalf("no pane for the user: %.300s", p)
		}
		return p
	}
	history := func(p string) string {
		i := strings.Index(p, `<ol class="permissions"`)
		if i < 0 {
			t.Fatalf("the pane has no permission history: %.2000s", p)
		}
		return p[i : i+strings.Index(p[i:], "</ol>")]
	}
	created := `<li><span class="when">2026-04-14T14:00:00Z (Tue 10:00 EDT)</span> <span class="permission">UNVERIFIED</span> <span class="tag by" title="what set it">created</span></li>`

	t.Run("in review", func(t *testing.T) {
		p := pane()
		uiContains(t, "the pane", p, []string{
			`<span class="permission" title="permission">UNVERIFIED</span>`,
			`>Documents</h3>`, `<section class="kyc-doc" id="doc-` + doc.ID + `" aria-label="document Kay Why">`,
			`<b class="doc-name">Kay Why</b>`, `<span class="scope" title="permission_scope">UNVERIFIED</span>`,
			`<th class="doc-kind">kind</th><th>document_type</th><th>status</th>`, `>Permission history</h3>`,
		}, nil)
		uiContains(t, "the SSN's row", uiSubDoc(t, p, ssn), []string{
			`data-type="SSN" data-status="SUBMITTED|REVIEWING"`, `<td class="doc-kind">virtual</td>`, `<td class="doc-type">SSN</td>`,
			`<span class="status s-submitted-reviewing">SUBMITTED|REVIEWING</span>`,
			`<div class="next due" title="2026-04-14T15:00:00Z (Tue 11:00 EDT)">review due Tue 11:00 EDT</div>`,
			review(ssn) + ` data-body='{"status":"VALID"}' data-done="SSN marked valid" aria-label="Mark SSN valid">Valid</button>`,
			review(ssn) + ` data-body='{"status":"INVALID"}' data-done="SSN marked invalid" aria-label="Mark SSN invalid">Invalid</button>`,
		}, nil)
		uiContains(t, "the GOVT_ID's row", uiSubDoc(t, p, govt), []string{
			`<td class="doc-kind">physical</td>`, `<td class="doc-type">GOVT_ID</td>`,
			`<span class="status s-submitted-reviewing">SUBMITTED|REVIEWING</span>`,
			`aria-label="Mark GOVT_ID valid"`, `aria-label="Mark GOVT_ID invalid"`,
		}, []string{"review due"})
		uiContains(t, "the history", history(p), []string{created}, []string{"RECEIVE"})
	})

	t.Run("the SSN marked valid through the page's route: RECEIVE", func(t *testing.T) {
		got := testkit.CtlOK(t, fake, "POST", "/users/"+u.ID+"/documents/"+ssn+"/review", map[string]any{"status": "VALID"})
		if user := testkit.CtlObj(got["user"]); user["permission"] != "RECEIVE" {
			t.Fatalf("the review answered %v", got)
		}
		p := pane()
		uiContains(t, "the pane", p, []string{`<span class="permission" title="permission">RECEIVE</span>`,
			`<span class="scope" title="permission_scope">RECEIVE|1000|DAILY</span>`}, nil)
		uiContains(t, "the SSN's row", uiSubDoc(t, p, ssn),
			[]string{`<span class="status s-submitted-valid">SUBMITTED|VALID</span>`, `aria-label="Mark SSN invalid"`},
			[]string{`aria-label="Mark SSN valid"`, "review due"})
		uiContains(t, "the GOVT_ID's row", uiSubDoc(t, p, govt),
			[]string{"SUBMITTED|REVIEWING", `aria-label="Mark GOVT_ID valid"`}, nil)
		uiContains(t, "the history", history(p), []string{created,
			`<span class="permission">RECEIVE</span> <span class="tag by" title="what set it">documents</span>`}, nil)
	})

	t.Run("the GOVT_ID marked valid: SEND-AND-RECEIVE", func(t *testing.T) {
		testkit.CtlOK(t, fake, "POST", "/users/"+u.ID+"/documents/"+govt+"/review", map[string]any{"status": "VALID"})
		p := pane()
		uiContains(t, "the pane", p, []string{`<span class="permission" title="permission">SEND-AND-RECEIVE</span>`}, nil)
		uiContains(t, "the GOVT_ID's row", uiSubDoc(t, p, govt),
			[]string{`<span class="status s-submitted-valid">SUBMITTED|VALID</span>`}, []string{`aria-label="Mark GOVT_ID valid"`})
		h := history(p)
		steps := []string{">UNVERIFIED<", ">RECEIVE<", ">SEND-AND-RECEIVE<"}
		last := -1
		for _, s := range steps {
			i := strings.Index(h, s)
			if i <= last {
				t.Fatalf("the history does not list %v in order: %s", steps, h)
			}
			last = i
		}
	})

	t.Run("the SSN marked invalid: the permission stays", func(t *testing.T) {
		testkit.CtlOK(t, fake, "POST", "/users/"+u.ID+"/documents/"+ssn+"/review", map[string]any{"status": "INVALID"})
		p := pane()
		uiContains(t, "the pane", p, []string{`<span class="permission" title="permission">SEND-AND-RECEIVE</span>`}, nil)
		uiContains(t, "the SSN's row", uiSubDoc(t, p, ssn),
			[]string{`<span class="status s-submitted-invalid">SUBMITTED|INVALID</span>`, `aria-label="Mark SSN valid"`},
			[]string{`aria-label="Mark SSN invalid"`})
		if n := strings.Count(history(p), "<li>"); n != 3 {
			t.Errorf("the history has %d steps, want 3: %s", n, history(p))
		}
	})

	t.Run("a user without documents says so", func(t *testing.T) {
		plain := fake.MustAddUser(t, synapsefake.UserSeed{})
		p := uiPane(testkit.UIPage(t, fake, "/_fake/ui/?open="+plain.ID))
		uiContains(t, "the pane", p, []string{`<p class="muted small">No documents.</p>`, `>Permission history</h3>`, `<ol class="permissions"`},
			[]string{`class="kyc-doc"`, "/review"})
	})
}
