package phrase

import "testing"

func TestParseCaller(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		header string
		want   Caller
	}{
		{"python/0.0.0.dev0", CallerPython},
		{"Python/1.2.3", CallerPython},
		{"node/1.2.3", CallerNode},
		{"node", CallerNode},
		{"", CallerHTTP},
		{"curl/8.5.0", CallerHTTP},
		{"ruby", CallerRuby},
		{"ruby/0.1.0", CallerRuby},
		{"jruby", CallerHTTP},
	} {
		if got := ParseCaller(tc.header); got != tc.want {
			t.Errorf("ParseCaller(%q) = %d, want %d", tc.header, got, tc.want)
		}
	}
}

// TestPhrasingsHaveEveryCaller: each Go phrase has words for every caller
// but Go; one left out would phrase its hints with the call cut out.
func TestPhrasingsHaveEveryCaller(t *testing.T) {
	t.Parallel()
	for _, p := range phrasings {
		for c := CallerHTTP; c <= lastCaller; c++ {
			if p.by[c] == "" {
				t.Errorf("%s: no words for caller %d", p.goPhrase, c)
			}
		}
	}
}

// TestGoCall: GoCall finds what only Go can call, and nothing in a
// route or another language's call.
func TestGoCall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, want string }{
		{"call fake.Advance(time.Hour)", "fake.A"},
		{"Advance(1h) moves it", "Advance"},
		{"UserSeed.Documents", "Seed."},
		{"pass WithKYCReview(0)", "WithKYCReview"},
		{"read User.RefreshToken", "RefreshToken"},
		{"POST /_fake/clock/advance", ""},
		{`synapsefake.user(user_id)["refresh_token"]`, ""},
	} {
		if got := GoCall(tc.text); got != tc.want {
			t.Errorf("GoCall(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
