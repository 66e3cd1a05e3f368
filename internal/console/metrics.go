// Metrics, the console's side: /_fake/metrics, the counts in the exposition format.

package console

import (
	"bytes"
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/synapsefake/synapsefake/internal/api"
)

// GET /_fake/metrics answers the Prometheus text exposition format
// (version 0.0.4), written here by hand: the library's module takes no
// dependency for it. On the default platform (the only one of a Server of
// its own) it counts the whole process, every platform summed; on a
// platform made with POST /_fake/platforms, at
// /_fake/platforms/{client_id}/metrics, that platform alone.

// metricsContentType is the exposition format's media type.
const metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

// scraped is what one server's counters held at a scrape.
type scraped struct {
	requests map[api.RequestKey]uint64
	refusals map[api.RefusalKey]uint64
	webhooks [3]uint64 // by api.WebhookOutcome
}

func newScraped() scraped {
	return scraped{requests: map[api.RequestKey]uint64{}, refusals: map[api.RefusalKey]uint64{}}
}

// add adds o's counts to c's.
func (c *scraped) add(o scraped) {
	for k, v := range o.requests {
		c.requests[k] += v
	}
	for k, v := range o.refusals {
		c.refusals[k] += v
	}
	for i, v := range o.webhooks {
		c.webhooks[i] += v
	}
}

// scrape reads m's counters.
func scrape(m *api.Metrics) scraped {
	c := newScraped()
	m.Requests(func(k api.RequestKey, v uint64) { c.requests[k] = v })
	m.Refusals(func(k api.RefusalKey, v uint64) { c.refusals[k] = v })
	for o := range c.webhooks {
		c.webhooks[o] = m.Webhooks(api.WebhookOutcome(o))
	}
	return c
}

// metricsScrapes keeps, on the default platform, what each platform's
// counters held at the last scrape, so that the process's counters never
// go down when a platform is deleted: its last scraped counts move to
// retired (what it counted after that scrape is lost). Holding a
// platform's *api.Metrics does not hold the platform.
type metricsScrapes struct {
	mu      sync.Mutex
	seen    map[*api.Metrics]scraped
	retired scraped
}

// processCounts is the sum of every platform's counters (cores, the
// default first) and of those deleted since they were last scraped.
func (ms *metricsScrapes) processCounts(cores []*Console) scraped {
	now := make(map[*api.Metrics]scraped, len(cores))
	sum := newScraped()
	for _, c := range cores {
		got := scrape(c.Metrics)
		now[c.Metrics] = got
		sum.add(got)
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.retired.requests == nil {
		ms.retired = newScraped()
	}
	for m, last := range ms.seen {
		if _, ok := now[m]; !ok {
			ms.retired.add(last)
		}
	}
	ms.seen = now
	sum.add(ms.retired)
	return sum
}

// serveMetrics serves GET /_fake/metrics.
func (s *Console) serveMetrics(w http.ResponseWriter, r *http.Request) {
	if s.Cfg.ControlToken != "" && !s.checkControlToken(w, r) {
		return
	}
	var cores []*Console
	if s.Host != nil {
		cores = s.Host.PlatformCores()
	}
	process := len(cores) == 0 || cores[0] == s
	if len(cores) == 0 || !process {
		cores = []*Console{s}
	}
	var counts scraped
	if process {
		counts = s.scrapes.processCounts(cores)
	} else {
		counts = scrape(s.Metrics)
	}
	var captured, journalCalls int
	var journalBytes int64
	for _, c := range cores {
		captured += c.Webhooks().Len()
		n, b := c.JournalSize()
		journalCalls, journalBytes = journalCalls+n, journalBytes+b
	}

	var b bytes.Buffer
	requests := slices.SortedFunc(mapKeys(counts.requests), func(x, y api.RequestKey) int {
		return cmp.Or(strings.Compare(x.Route, y.Route), strings.Compare(x.Method, y.Method), cmp.Compare(x.Status, y.Status))
	})
	family(&b, "synapsefake_requests_total", "counter", "API requests answered (under /v3.1, not the control API), by method, route pattern (unmatched for none) and HTTP status.")
	for _, k := range requests {
		sample(&b, "synapsefake_requests_total", counts.requests[k], "method", k.Method, "route", k.Route, "status", strconv.Itoa(k.Status))
	}
	refusals := slices.SortedFunc(mapKeys(counts.refusals), func(x, y api.RefusalKey) int {
		return cmp.Or(strings.Compare(x.ErrorCode, y.ErrorCode), strings.Compare(x.Code, y.Code))
	})
	family(&b, "synapsefake_refusals_total", "counter", "API requests refused, by the answer's error_code and error.code.")
	for _, k := range refusals {
		sample(&b, "synapsefake_refusals_total", counts.refusals[k], "error_code", k.ErrorCode, "code", k.Code)
	}
	family(&b, "synapsefake_webhook_attempts_total", "counter", "Webhook delivery attempts, by outcome: delivered (a 2xx to a request signed right), failed, not_sent (deliveries off).")
	for o, n := range counts.webhooks {
		sample(&b, "synapsefake_webhook_attempts_total", n, "outcome", api.WebhookOutcome(o).String())
	}
	if process {
		family(&b, "synapsefake_platforms", "gauge", "Platforms the process holds, the default included.")
		sample(&b, "synapsefake_platforms", uint64(len(cores)))
	}
	family(&b, "synapsefake_captured_webhooks", "gauge", "Webhooks in the capture (GET /_fake/webhooks).")
	sample(&b, "synapsefake_captured_webhooks", uint64(captured))
	family(&b, "synapsefake_journal_requests", "gauge", "API requests in the request journal (GET /_fake/requests).")
	sample(&b, "synapsefake_journal_requests", uint64(journalCalls))
	family(&b, "synapsefake_journal_bytes", "gauge", "Bytes the request journal counts its requests for (-journal-bytes bounds it).")
	sample(&b, "synapsefake_journal_bytes", uint64(journalBytes))

	h := w.Header()
	h.Set("Content-Type", metricsContentType)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	_, _ = w.Write(b.Bytes())
}

// mapKeys iterates over m's keys.
func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// family writes a metric family's HELP and TYPE lines.
func family(b *bytes.Buffer, name, typ, help string) {
	b.WriteString("# HELP " + name + " " + escapeHelp(help) + "\n")
	b.WriteString("# TYPE " + name + " " + typ + "\n")
}

// sample writes one sample of name with its labels, given as name, value
// pairs.
func sample(b *bytes.Buffer, name string, v uint64, labels ...string) {
	b.WriteString(name)
	for i := 0; i+1 < len(labels); i += 2 {
		if i == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(labels[i] + `="` + escapeLabelValue(labels[i+1]) + `"`)
		if i+2 >= len(labels) {
			b.WriteByte('}')
		}
	}
	b.WriteByte(' ')
	b.WriteString(strconv.FormatUint(v, 10))
	b.WriteByte('\n')
}

// labelEscaper and helpEscaper escape what the exposition format says
// each must: a label value's backslash, double quote and line feed; a
// HELP text's backslash and line feed.
var (
	labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
)

// escapeLabelValue escapes v for a label value of the text exposition
// format.
func escapeLabelValue(v string) string { return labelEscaper.Replace(v) }

func escapeHelp(s string) string { return helpEscaper.Replace(s) }
