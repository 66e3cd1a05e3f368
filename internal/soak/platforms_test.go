package main

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestForeignMarks(t *testing.T) {
	const tag, id = "zqx00000000aa", "soak-o1-0"
	for _, tc := range []struct {
		name string
		raw  string
		html bool
		want []string
	}{
		{"own tag and client", `{"legal_names":["Soak zqx00000000aa a1"],"client":{"id":"soak-o1-0","name":"x"}}`, false, nil},
		{"no marks", `{"now":1,"success":true}`, false, nil},
		{"another platform's tag", `{"users":[{"legal_names":["Soak zqx00000000bb a1"]},{"legal_names":["Soak zqx00000000aa a2"]}]}`, false, []string{"tag zqx00000000bb"}},
		{"a tag in another case", `{"legal_names":["SOAK ZQX00000000BB"]}`, false, []string{"tag zqx00000000bb"}},
		{"each mark once", `["zqx00000000bb","zqx00000000bb"]`, false, []string{"tag zqx00000000bb"}},
		{"another client", `{"client":{"id":"soak-o2-0","name":"soak-o2-0"}}`, false, []string{"client id soak-o2-0"}},
		{"another client_id", `{"client_id":"soak-o2-0","format":"synapsefake-state"}`, false, []string{"client id soak-o2-0"}},
		{"both", `{"client_id":"x","note":"zqx00000000cc"}`, false, []string{"tag zqx00000000cc", "client id x"}},
		{"a page's switcher names every client", `<code>soak-o2-0</code> "client_id":"x" Soak zqx00000000aa`, true, nil},
		{"a page with another tag", `<td>Soak zqx00000000dd</td>`, true, []string{"tag zqx00000000dd"}},
		{"too short to be a tag", `zqx00000000b`, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := foreignMarks([]byte(tc.raw), tag, id, tc.html); !slices.Equal(got, tc.want) {
				t.Errorf("foreignMarks(%s) = %q, want %q", tc.raw, got, tc.want)
			}
		})
	}
}

func TestControlURLStrays(t *testing.T) {
	for _, tc := range []struct {
		url, id string
		stray   bool
	}{
		{"http://127.0.0.1:8080/_fake/platforms/soak-o1-0", "soak-o1-0", false},
		{"http://127.0.0.1:8080/_fake/platforms/a.b", "a.b", false},
		{"http://127.0.0.1:8080/_fake/platforms/...", "...", false},
		{"http://127.0.0.1:8080/_fake/platforms/..", "..", true},
		{"http://127.0.0.1:8080/_fake/platforms/.", ".", true},
		{"http://127.0.0.1:8080/_fake/platforms/other", "soak-o1-0", true},
	} {
		if got := controlURLStrays(tc.url, tc.id); (got != "") != tc.stray {
			t.Errorf("controlURLStrays(%s, %s) = %q, want a stray: %v", tc.url, tc.id, got, tc.stray)
		}
	}
	if got, want := resolvePath("/_fake/platforms/../clock/advance"), "/_fake/clock/advance"; got != want {
		t.Errorf("resolvePath = %s, want %s", got, want)
	}
}

func TestSwitcherStrays(t *testing.T) {
	const def = "client_id_default"
	link := func(href, id string, current bool) string {
		cur := ""
		if current {
			cur = ` aria-current="true"`
		}
		return `<li><a href="` + href + `"` + cur + `>` + id + `</a> <code>` + id + `</code></li>`
	}
	for _, tc := range []struct {
		name        string
		page        string
		wantStrays  int
		wantCurrent string
	}{
		{"no switcher", `<html><body>one platform</body></html>`, 0, ""},
		{"every link its own", `<ul>` + link("/_fake/ui/", def, false) + link("/_fake/platforms/p1/ui/", "p1", true) + `</ul>`, 0, "p1"},
		{"the default current", link("/_fake/ui/", def, true) + link("/_fake/platforms/p1/ui/", "p1", false), 0, def},
		{"'..' leads to the default's", link("/_fake/ui/", def, false) + link("/_fake/platforms/../ui/", "..", false) + link("/_fake/platforms/p1/ui/", "p1", true), 1, "p1"},
		{"'.' leads nowhere", link("/_fake/platforms/./ui/", ".", true), 1, "."},
		{"a link to another platform", link("/_fake/platforms/p2/ui/", "p1", false), 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			strays, current := switcherStrays([]byte(tc.page), def)
			if len(strays) != tc.wantStrays || current != tc.wantCurrent {
				t.Errorf("switcherStrays = %q, current %q; want %d strays, current %q", strays, current, tc.wantStrays, tc.wantCurrent)
			}
		})
	}
}

func TestStderrScan(t *testing.T) {
	var e stderrScan
	// Writes that split lines where they like.
	for _, w := range []string{"==================\nWARNING: DATA", " RACE\nWrite at 0x1 by goroutine 7:\n", "synapsefake: panic serving GET \"/x\": boom\n", "WARNING: DATA RACE\nlast line without newline"} {
		if _, err := e.Write([]byte(w)); err != nil {
			t.Fatal(err)
		}
	}
	e.close()
	if e.races != 2 || e.panics != 1 {
		t.Errorf("races %d, panics %d; want 2, 1", e.races, e.panics)
	}
	if want := []string{"==================", "WARNING: DATA RACE", "Write at 0x1 by goroutine 7:", `synapsefake: panic serving GET "/x": boom`, "WARNING: DATA RACE", "last line without newline"}; !slices.Equal(e.lines, want) {
		t.Errorf("lines %q, want %q", e.lines, want)
	}
}

func TestRegistryPick(t *testing.T) {
	var r registry
	a, b, c := &plat{id: "a"}, &plat{id: "b", seed: 7}, &plat{id: "c", seed: 7}
	for _, p := range []*plat{a, b, c} {
		r.add(p)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	b.mu.Lock() // its owner deletes it
	for range 20 {
		p := r.pick(rnd, func(p *plat) bool { return p.seed == 7 })
		if p != c {
			t.Fatalf("pick of seed 7 with b held by its owner = %v, want c", p)
		}
		p.mu.RUnlock()
	}
	r.remove(c)
	if p := r.pick(rnd, func(p *plat) bool { return p.seed == 7 }); p != nil {
		t.Errorf("pick with b held and c removed = %s, want none", p.id)
	}
	b.mu.Unlock()
	if p := r.pick(rnd, func(p *plat) bool { return p.seed == 7 }); p != b {
		t.Errorf("pick = %v, want b", p)
	} else {
		p.mu.RUnlock()
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 152345: "152,345", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %s, want %s", n, got, want)
		}
	}
}

func TestPlatformsReport(t *testing.T) {
	s := &psoak{cfg: pconfig{owners: 40}, stderr: &stderrScan{}, requests: map[string]int{"api": 3, "control": 2}, answers: map[int]int{200: 4, 404: 1}, made: map[string]int{"twins": 2}}
	s.stderr.line("WARNING: DATA RACE")
	s.try(cKeys, false, "")
	s.try(cKeys, true, "the key of %s opened %s", "a", "b")
	var out strings.Builder
	failed := s.report(&out, 2*time.Second, true)
	got := out.String()
	for _, want := range []string{
		"  requests: 5 (2/s)",
		"  answers by HTTP status: 200: 4, 404: 1\n",
		"FAIL 0 data races in the fake's stderr (1)\n",
		"         WARNING: DATA RACE\n",
		"FAIL no OAuth key or refresh token of one platform opens another, same seed or not (1 of 2 tries opened)\n       the key of a opened b\n",
		"ok   the fake stops on SIGTERM (0 of 1 not)\n",
		"15 passed, 2 failed\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if failed != 2 {
		t.Errorf("report = %d failed, want 2", failed)
	}
}
