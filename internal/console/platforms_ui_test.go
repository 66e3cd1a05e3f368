package console_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake/internal/testkit"

	"github.com/synapsefake/synapsefake"
)

// platformGet GETs url from a Platforms' listener without following
// redirects.
func platformGet(t *testing.T, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	return testkit.GetNoRedirect(t, http.DefaultClient, url, header)
}

// uiLinks are the control API paths a page's links, forms and buttons
// lead to.
var uiLinks = regexp.MustCompile(`(?:href|action|src|data-post|data-check|data-base)="(/_fake/[^"?#]*)`)

// TestPlatformsDashboard checks that each platform has a dashboard of its
// own at /_fake/platforms/{client_id}/ui/: its pages show that platform's
// objects only, every link, form and button on them leads to that
// platform's control API (but the switcher's, which lead to each
// platform's dashboard), its clock buttons move its clock only, and a
// server of one platform shows no switcher.
func TestPlatformsDashboard(t *testing.T) {
	start := time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)
	p, root := testkit.NewPlatforms(t, synapsefake.WithStartTime(start))
	a, err := p.Add(synapsefake.PlatformConfig{ClientID: "client_a", ClientSecret: "secret_a", Name: "Alpha"})
	if err != nil {
		t.Fatal(err)
	}
	ua := a.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Ann Alpha"}})
	na := a.MustAddNode(t, ua.ID, synapsefake.NodeSeed{Type: "DEPOSIT-US", Nickname: "Alpha checking", BalanceCents: 500})
	def := p.Default()
	ud := def.MustAddUser(t, synapsefake.UserSeed{LegalNames: []string{"Dora Default"}})
	defName, _ := testkit.CtlSend(t, http.DefaultClient, "GET", root+"/_fake/platforms/"+def.ClientID(), nil, nil).Body["platform"].(map[string]any)["name"].(string)

	pages := []string{"", "transactions", "webhooks", "subscriptions", "requests", "oauth", "?open=" + na.ID}
	for _, tc := range []struct {
		name, base     string
		shows, notShow string
		current        string
	}{
		{"made", "/_fake/platforms/client_a/", "Ann Alpha", "Dora Default", "Alpha"},
		{"default", "/_fake/", "Dora Default", "Ann Alpha", defName},
	} {
		for _, page := range pages {
			url := root + tc.base + "ui/" + page
			resp, body := platformGet(t, url, nil)
			if resp.StatusCode != 200 {
				t.Fatalf("%s: GET %s: %d %.300s", tc.name, url, resp.StatusCode, body)
			}
			if page == "" && (!strings.Contains(body, tc.shows) || strings.Contains(body, tc.notShow)) {
				t.Errorf("%s: GET %s shows %q: %v, %q: %v; want only the first", tc.name, url,
					tc.shows, strings.Contains(body, tc.shows), tc.notShow, strings.Contains(body, tc.notShow))
			}
			_, switcher, ok := strings.Cut(body, `<details class="platforms">`)
			switcher, _, ok2 := strings.Cut(switcher, `</details>`)
			if !ok || !ok2 {
				t.Fatalf("%s: GET %s: no platform switcher", tc.name, url)
			}
			for _, want := range []string{`href="/_fake/ui/"`, `href="/_fake/platforms/client_a/ui/"`, "Platform <b>" + tc.current + "</b>"} {
				if !strings.Contains(switcher, want) {
					t.Errorf("%s: GET %s: the switcher lacks %s:\n%s", tc.name, url, want, switcher)
				}
			}
			links := uiLinks.FindAllStringSubmatch(strings.Replace(body, switcher, "", 1), -1)
			if len(links) < 10 {
				t.Errorf("%s: GET %s: %d links, want the page's links", tc.name, url, len(links))
			}
			for _, l := range links {
				if !strings.HasPrefix(l[1], tc.base) || (tc.name == "default" && strings.HasPrefix(l[1], "/_fake/platforms/")) {
					t.Errorf("%s: GET %s: a link to %s, outside %s", tc.name, url, l[1], tc.base)
				}
			}
		}
	}

	// The find box and a row's link open the object on the same platform.
	resp, body := platformGet(t, root+"/_fake/platforms/client_a/ui/find?id="+na.ID, nil)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, "/_fake/platforms/client_a/ui/?open=") {
		t.Errorf("find on client_a: %d Location %q, want 302 to client_a's page: %.200s", resp.StatusCode, loc, body)
	}
	if resp, _ := platformGet(t, root+"/_fake/platforms/client_a/ui/find?id="+ud.ID, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("find of the default's user on client_a: %d, want 404", resp.StatusCode)
	}

	// The clock buttons move the platform's own clock.
	r := testkit.CtlSend(t, http.DefaultClient, "POST", root+"/_fake/platforms/client_a/ui/clock", map[string]string{"Origin": root}, map[string]any{"step": "1d"})
	if r.Status != 200 {
		t.Fatalf("POST client_a's ui/clock: %d %s", r.Status, r.Raw)
	}
	if got := a.Now(); !got.Equal(start.Add(24 * time.Hour)) {
		t.Errorf("client_a's clock %v after +1 day, want %v", got, start.Add(24*time.Hour))
	}
	if got := def.Now(); !got.Equal(start) {
		t.Errorf("the default's clock %v after client_a's +1 day, want %v", got, start)
	}

	// A removed platform's dashboard is gone with it.
	if err := p.Remove("client_a"); err != nil {
		t.Fatal(err)
	}
	if resp, _ := platformGet(t, root+"/_fake/platforms/client_a/ui/", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the removed platform's dashboard: %d, want 404", resp.StatusCode)
	}
	if _, body := platformGet(t, root+"/_fake/ui/", nil); strings.Contains(body, `class="platforms"`) {
		t.Errorf("one platform left, but the dashboard still shows a switcher")
	}

	// A fake of its own has no switcher.
	own := synapsefake.NewServer(t)
	if body := testkit.UIPage(t, own, "/_fake/ui/"); strings.Contains(body, `class="platforms"`) || !strings.Contains(body, `data-base="/_fake/"`) {
		t.Errorf("NewServer's dashboard: a switcher, or no data-base=/_fake/")
	}
}

// TestPlatformsDashboardToken checks that with a control token, a made
// platform's dashboard opened with ?token= sets the cookie and redirects to
// the same platform's page without the token.
func TestPlatformsDashboardToken(t *testing.T) {
	p, root := testkit.NewPlatforms(t, synapsefake.WithControlToken("tok"))
	if _, err := p.Add(synapsefake.PlatformConfig{ClientID: "client_a"}); err != nil {
		t.Fatal(err)
	}
	page := root + "/_fake/platforms/client_a/ui/transactions"
	if resp, _ := platformGet(t, page, nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET without the token: %d, want 401", resp.StatusCode)
	}
	resp, body := platformGet(t, page+"?token=tok&limit=5", nil)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/_fake/platforms/client_a/ui/transactions?limit=5" {
		t.Fatalf("GET ?token=: %d Location %q, want 303 to the page without the token: %.200s", resp.StatusCode, loc, body)
	}
	var cookie string
	for _, c := range resp.Cookies() {
		cookie = c.Name + "=" + c.Value
	}
	if resp, body := platformGet(t, page, map[string]string{"Cookie": cookie}); resp.StatusCode != 200 {
		t.Errorf("GET with the cookie: %d %.200s", resp.StatusCode, body)
	}
}

// TestPlatformsDashboardMemory: the dashboard's pages are parsed once a
// process, not once a platform (issue 45): 200 platforms, each visiting
// every page, grow the heap (what stays live after a collection) by less
// than 20 MiB; parsed per platform they grew it by 340 MiB. The platforms
// are 10 servers' 20 each, all of distinct client ids, so that every
// page's switcher is short and the test quick (under -race too).
func TestPlatformsDashboardMemory(t *testing.T) {
	const servers, each = 10, 20
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	pages := []string{"", "transactions", "webhooks", "subscriptions", "requests", "oauth"}
	visit := func(p *synapsefake.Platforms, base string) {
		t.Helper()
		for _, page := range pages {
			rec := httptest.NewRecorder()
			p.ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost"+base+"ui/"+page, nil))
			if rec.Code != 200 {
				t.Fatalf("GET %sui/%s: %d %.200s", base, page, rec.Code, rec.Body)
			}
		}
	}
	all := make([]*synapsefake.Platforms, servers)
	for i := range all {
		p := synapsefake.NewPlatforms()
		t.Cleanup(p.Close)
		for j := range each {
			if _, err := p.Add(synapsefake.PlatformConfig{ClientID: fmt.Sprintf("client_%d", i*each+j)}); err != nil {
				t.Fatal(err)
			}
		}
		all[i] = p
	}
	visit(all[0], "/_fake/") // what any first visit loads, before the count
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	for _, p := range all {
		for _, s := range p.List()[1:] {
			visit(p, "/_fake/platforms/"+s.ClientID()+"/")
		}
	}
	const limit = 20 << 20
	if grew := int64(heap()) - int64(before); grew >= limit {
		t.Errorf("%d platforms' dashboards grew the heap by %.1f MiB, want less than %d MiB", servers*each, float64(grew)/(1<<20), limit>>20)
	}
	runtime.KeepAlive(all)
}
