package console_test

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synapsefake/synapsefake"
	"github.com/synapsefake/synapsefake/internal/testkit"
)

// expoSample is one sample line of the text exposition format.
type expoSample struct {
	name   string
	labels map[string]string
	value  float64
}

var (
	helpEscapes = strings.NewReplacer(`\\`, "", `\n`, "")
	metricName  = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelName   = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// parseExposition reads a Prometheus text exposition (format 0.0.4)
// strictly: every line a HELP, a TYPE or a sample; each family's HELP and
// TYPE once, before its samples, and its samples together; names and
// label names valid; label values quoted with only \\, \" and \n escaped;
// no series twice; a counter's name ending in _total and its values whole
// and not negative; the text ending with a line feed. It answers the
// families' types and the samples, in order.
func parseExposition(text string) (types map[string]string, samples []expoSample, err error) {
	if !strings.HasSuffix(text, "\n") {
		return nil, nil, fmt.Errorf("the text does not end with a line feed")
	}
	types = map[string]string{}
	helped := map[string]bool{}
	done := map[string]bool{} // families whose samples ended
	seen := map[string]bool{} // series
	current := ""
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d %q: %s", i+1, line, fmt.Sprintf(format, args...))
		}
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			kind, rest, _ := strings.Cut(rest, " ")
			name, arg, _ := strings.Cut(rest, " ")
			if !metricName.MatchString(name) {
				return nil, nil, fail("bad metric name")
			}
			if done[name] || current == name && types[name] != "" && kind == "TYPE" {
				return nil, nil, fail("comes after the family's samples")
			}
			switch kind {
			case "HELP":
				if helped[name] || arg == "" {
					return nil, nil, fail("a second or empty HELP")
				}
				if strings.Contains(helpEscapes.Replace(arg), `\`) {
					return nil, nil, fail("a bad escape in HELP")
				}
				helped[name] = true
			case "TYPE":
				if types[name] != "" {
					return nil, nil, fail("a second TYPE")
				}
				switch arg {
				case "counter", "gauge", "untyped":
				default:
					return nil, nil, fail("type %q", arg)
				}
				if arg == "counter" && !strings.HasSuffix(name, "_total") {
					return nil, nil, fail("a counter without _total")
				}
				types[name] = arg
			default:
				return nil, nil, fail("a comment that is neither HELP nor TYPE")
			}
			if current != "" && current != name {
				done[current] = true
			}
			current = name
			continue
		}
		s, series, err := parseSample(line)
		if err != nil {
			return nil, nil, fail("%v", err)
		}
		if types[s.name] == "" || !helped[s.name] {
			return nil, nil, fail("a sample before its family's HELP and TYPE")
		}
		if s.name != current {
			return nil, nil, fail("apart from its family's other samples")
		}
		if seen[series] {
			return nil, nil, fail("the series a second time")
		}
		seen[series] = true
		if types[s.name] == "counter" && (s.value < 0 || s.value != math.Trunc(s.value)) {
			return nil, nil, fail("a counter's value %v", s.value)
		}
		samples = append(samples, s)
	}
	return types, samples, nil
}

// parseSample reads name{label="value",...} value, and answers the sample
// and its series (name and labels as written).
func parseSample(line string) (expoSample, string, error) {
	s := expoSample{labels: map[string]string{}}
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		return s, "", fmt.Errorf("no value")
	}
	s.name = line[:i]
	if !metricName.MatchString(s.name) {
		return s, "", fmt.Errorf("bad metric name %q", s.name)
	}
	rest := line[i:]
	if rest[0] == '{' {
		rest = rest[1:]
		for {
			eq := strings.IndexByte(rest, '=')
			if eq < 0 {
				return s, "", fmt.Errorf("a label without =")
			}
			name := rest[:eq]
			if !labelName.MatchString(name) || strings.HasPrefix(name, "__") {
				return s, "", fmt.Errorf("bad label name %q", name)
			}
			if _, dup := s.labels[name]; dup {
				return s, "", fmt.Errorf("label %q twice", name)
			}
			rest = rest[eq+1:]
			if rest == "" || rest[0] != '"' {
				return s, "", fmt.Errorf("label %q's value is not quoted", name)
			}
			var v strings.Builder
			j := 1
			for ; j < len(rest) && rest[j] != '"'; j++ {
				c := rest[j]
				if c == '\n' {
					return s, "", fmt.Errorf("a raw line feed in a label value")
				}
				if c == '\\' {
					j++
					switch {
					case j >= len(rest):
						return s, "", fmt.Errorf("an escape at the end")
					case rest[j] == '\\', rest[j] == '"':
						c = rest[j]
					case rest[j] == 'n':
						c = '\n'
					default:
						return s, "", fmt.Errorf("a bad escape \\%c", rest[j])
					}
				}
				v.WriteByte(c)
			}
			if j >= len(rest) {
				return s, "", fmt.Errorf("an unterminated label value")
			}
			s.labels[name] = v.String()
			rest = rest[j+1:]
			if strings.HasPrefix(rest, ",") {
				rest = rest[1:]
				continue
			}
			if !strings.HasPrefix(rest, "}") {
				return s, "", fmt.Errorf("labels not closed")
			}
			rest = rest[1:]
			break
		}
	}
	if !strings.HasPrefix(rest, " ") || strings.Contains(rest[1:], " ") {
		return s, "", fmt.Errorf("want one space and a value (no timestamp)")
	}
	v, err := strconv.ParseFloat(rest[1:], 64)
	if err != nil {
		return s, "", fmt.Errorf("value: %v", err)
	}
	s.value = v
	return s, line[:len(line)-len(rest)], nil
}

// TestParseExpositionRefuses proves the parser strict: each text breaks
// one rule.
func TestParseExpositionRefuses(t *testing.T) {
	t.Parallel()
	const head = "# HELP a_total A.\n# TYPE a_total counter\n"
	for name, text := range map[string]string{
		"no final line feed":       head + "a_total 1",
		"sample before TYPE":       "a_total 1\n" + head,
		"TYPE twice":               head + "# TYPE a_total counter\na_total 1\n",
		"series twice":             head + "a_total{x=\"1\"} 1\na_total{x=\"1\"} 2\n",
		"unquoted value":           head + "a_total{x=1} 1\n",
		"bad escape":               head + "a_total{x=\"\\t\"} 1\n",
		"unterminated":             head + "a_total{x=\"1} 1\n",
		"counter without _total":   "# HELP a A.\n# TYPE a counter\na 1\n",
		"negative counter":         head + "a_total -1\n",
		"bad label name":           head + "a_total{1x=\"1\"} 1\n",
		"samples apart":            head + "a_total 1\n# HELP b B.\n# TYPE b gauge\nb 1\na_total{x=\"2\"} 1\n",
		"a timestamp":              head + "a_total 1 1700000000000\n",
		"an unknown comment":       head + "# hello\na_total 1\n",
		"a raw line feed in value": head + "a_total{x=\"a\nb\"} 1\n",
	} {
		if _, _, err := parseExposition(text); err == nil {
			t.Errorf("%s: parsed %q", name, text)
		}
	}
	if _, s, err := parseExposition(head + "a_total{x=\"q\\\"b\\\\s\\nl\"} 3\n"); err != nil || s[0].labels["x"] != "q\"b\\s\nl" {
		t.Errorf("escaped label value: %v %+v", err, s)
	}
}

// getMetrics reads url (a metrics endpoint) and parses it.
func getMetrics(t *testing.T, url string, header map[string]string) (string, map[string]string, []expoSample) {
	t.Helper()
	resp, body := testkit.GetNoRedirect(t, http.DefaultClient, url, header)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; version=0.0.4; charset=utf-8" {
		t.Fatalf("GET %s: %d %s %.300s", url, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	types, samples, err := parseExposition(body)
	if err != nil {
		t.Fatalf("GET %s: %v\n%s", url, err, body)
	}
	return body, types, samples
}

// metricsEnv is a Platforms with a receiver that takes webhooks and one
// that refuses them, and a platform made besides the default.
type metricsEnv struct {
	p    *synapsefake.Platforms
	root string
	made *synapsefake.Server
}

func newMetricsEnv(t *testing.T) metricsEnv {
	t.Helper()
	p, root := testkit.NewPlatforms(t, synapsefake.WithWebhookRate(-1))
	made, err := p.Add(synapsefake.PlatformConfig{ClientID: "client_m", ClientSecret: "secret_m"})
	if err != nil {
		t.Fatal(err)
	}
	return metricsEnv{p: p, root: root, made: made}
}

// call sends an API request to the platform whose gateway it carries.
func (e metricsEnv) call(t *testing.T, method, path, gateway string) int {
	t.Helper()
	req, err := http.NewRequest(method, e.root+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-SP-GATEWAY", gateway)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestMetrics reads /_fake/metrics after known traffic on two platforms:
// the text is the exposition format (parseExposition), requests are
// counted by method, route pattern (never the raw path) and status,
// refusals by code, webhook attempts by outcome, with the platforms, the
// capture and the journal; the default platform's endpoint counts the
// process, a made platform's itself; a deleted platform's counts stay in
// the process's, so that no counter goes down.
func TestMetrics(t *testing.T) {
	t.Parallel()
	e := newMetricsEnv(t)
	def := e.p.Default()
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(ok.Close)
	refuses := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) }))
	t.Cleanup(refuses.Close)
	def.MustAddSubscription(t, ok.URL, "USERS|POST")
	e.made.MustAddSubscription(t, refuses.URL, "USERS|POST")
	def.MustAddUser(t, synapsefake.UserSeed{})
	e.made.MustAddUser(t, synapsefake.UserSeed{})
	def.Flush()
	e.made.Flush()

	for _, c := range []struct {
		method, path, gateway string
		status                int
	}{
		{"GET", "/v3.1/users", def.Gateway(), 200},
		{"GET", "/v3.1/users", def.Gateway(), 200},
		{"GET", "/v3.1/users/5f0a0a0a0a0a0a0a0a0a0a01", def.Gateway(), 404},
		{"GET", "/v3.1/users/5f0a0a0a0a0a0a0a0a0a0a02", def.Gateway(), 404},
		{"GET", "/v3.1/users", "client_nobody|wrong", 401},
		{"BREW", "/v3.1/users", def.Gateway(), 409},
		{"GET", "/v3.1/users/x/nodes/y/tran", def.Gateway(), 404},
		{"GET", "/v3.1/users", e.made.Gateway(), 200},
	} {
		if got := e.call(t, c.method, c.path, c.gateway); got != c.status {
			t.Fatalf("%s %s: %d, want %d", c.method, c.path, got, c.status)
		}
	}

	want := `# HELP synapsefake_requests_total API requests answered (under /v3.1, not the control API), by method, route pattern (unmatched for none) and HTTP status.
# TYPE synapsefake_requests_total counter
synapsefake_requests_total{method="GET",route="/users",status="200"} 3
synapsefake_requests_total{method="GET",route="/users",status="401"} 1
synapsefake_requests_total{method="OTHER",route="/users",status="409"} 1
synapsefake_requests_total{method="GET",route="/users/{user_id}",status="404"} 2
synapsefake_requests_total{method="GET",route="unmatched",status="404"} 1
# HELP synapsefake_refusals_total API requests refused, by the answer's error_code and error.code.
# TYPE synapsefake_refusals_total counter
synapsefake_refusals_total{error_code="100",code="invalid_client_credentials"} 1
synapsefake_refusals_total{error_code="404",code="not_found"} 1
synapsefake_refusals_total{error_code="404",code="unable_to_locate_user"} 2
synapsefake_refusals_total{error_code="410",code="method_not_allowed"} 1
# HELP synapsefake_webhook_attempts_total Webhook delivery attempts, by outcome: delivered (a 2xx to a request signed right), failed, not_sent (deliveries off).
# TYPE synapsefake_webhook_attempts_total counter
synapsefake_webhook_attempts_total{outcome="delivered"} 1
synapsefake_webhook_attempts_total{outcome="failed"} 1
synapsefake_webhook_attempts_total{outcome="not_sent"} 0
# HELP synapsefake_platforms Platforms the process holds, the default included.
# TYPE synapsefake_platforms gauge
synapsefake_platforms 2
# HELP synapsefake_captured_webhooks Webhooks in the capture (GET /_fake/webhooks).
# TYPE synapsefake_captured_webhooks gauge
synapsefake_captured_webhooks 2
# HELP synapsefake_journal_requests API requests in the request journal (GET /_fake/requests).
# TYPE synapsefake_journal_requests gauge
synapsefake_journal_requests 8
# HELP synapsefake_journal_bytes Bytes the request journal counts its requests for (-journal-bytes bounds it).
# TYPE synapsefake_journal_bytes gauge
synapsefake_journal_bytes JOURNAL
`
	body, _, process := getMetrics(t, e.root+"/_fake/metrics", nil)
	journal := value(process, "synapsefake_journal_bytes", nil)
	want = strings.Replace(want, "JOURNAL", strconv.FormatFloat(journal, 'f', -1, 64), 1)
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("GET /_fake/metrics (-want +got):\n%s", diff)
	}

	// The made platform's own: its request, its 401 is the default's.
	_, _, own := getMetrics(t, e.root+"/_fake/platforms/client_m/metrics", nil)
	got := map[string]float64{}
	for _, s := range own {
		got[s.name+fmt.Sprint(s.labels)] = s.value
	}
	if value(own, "synapsefake_requests_total", map[string]string{"method": "GET", "route": "/users", "status": "200"}) != 1 ||
		value(own, "synapsefake_webhook_attempts_total", map[string]string{"outcome": "failed"}) != 1 ||
		value(own, "synapsefake_journal_requests", nil) != 1 || len(got) != 7 {
		t.Errorf("the made platform's metrics: %v, want its one request and its failed attempt", got)
	}
	if _, has := got["synapsefake_platforms"+fmt.Sprint(map[string]string{})]; has {
		t.Errorf("a made platform's metrics count the platforms")
	}
	if mine := value(own, "synapsefake_journal_bytes", nil); mine <= 0 || mine >= journal {
		t.Errorf("journal bytes: the made platform's %v, the process's %v, want 0 < the platform's < the process's", mine, journal)
	}

	// A deleted platform's counts stay in the process's.
	if err := e.p.Remove("client_m"); err != nil {
		t.Fatal(err)
	}
	_, _, after := getMetrics(t, e.root+"/_fake/metrics", nil)
	for _, s := range after {
		if s.name == "synapsefake_requests_total" && s.labels["route"] == "/users" && s.labels["status"] == "200" && s.value != 3 {
			t.Errorf("GET /users 200 after the deletion: %v, want 3 still", s.value)
		}
		if s.name == "synapsefake_webhook_attempts_total" && s.labels["outcome"] == "failed" && s.value != 1 {
			t.Errorf("failed attempts after the deletion: %v, want 1 still", s.value)
		}
		if s.name == "synapsefake_platforms" && s.value != 1 {
			t.Errorf("platforms after the deletion: %v, want 1", s.value)
		}
	}
}

// value is the value of the sample of name with labels (nil for none) in
// samples, or -1 when there is none.
func value(samples []expoSample, name string, labels map[string]string) float64 {
	for _, s := range samples {
		if s.name == name && cmp.Equal(s.labels, labels, cmpEmptyMap) {
			return s.value
		}
	}
	return -1
}

// cmpEmptyMap makes a nil map equal an empty one.
var cmpEmptyMap = cmp.FilterValues(func(a, b map[string]string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())

// TestMetricsNotSent: a server that captures webhooks without delivering
// them counts its attempts as not sent; Reset leaves the counters be.
func TestMetricsNotSent(t *testing.T) {
	t.Parallel()
	fake := synapsefake.NewServer(t, synapsefake.WithoutWebhookDelivery())
	fake.MustAddSubscription(t, "http://127.0.0.1:1/hooks", "USERS|POST")
	fake.MustAddUser(t, synapsefake.UserSeed{})
	testkit.Do(t, fake, testkit.Call{Method: "GET", Path: "/users", Header: testkit.GatewayHeaders(fake)})
	fake.Reset()
	_, _, samples := getMetrics(t, testkit.CtlRoot(fake)+"/_fake/metrics", nil)
	want := map[string]float64{"not_sent": 1, "requests": 1, "platforms": 1}
	got := map[string]float64{}
	for _, s := range samples {
		switch {
		case s.name == "synapsefake_webhook_attempts_total" && s.labels["outcome"] == "not_sent":
			got["not_sent"] = s.value
		case s.name == "synapsefake_requests_total":
			got["requests"] += s.value
		case s.name == "synapsefake_platforms":
			got["platforms"] = s.value
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
}
