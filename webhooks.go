package synapsefake

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Updaters recorded in webhook_meta.updated_by and the webhook log.
const (
	UpdatedBySelf    = "SELF"    // a change made through the API
	UpdatedByBackend = "BACKEND" // a change made by the clock or a scenario helper
)

// webhookSuccess are the receiver's answers that end a delivery.
var webhookSuccess = []int{200, 204, 400, 404, 405, 408}

// webhookRetryDelays are the waits before each retry of a failed delivery:
// five retries within 24 hours of the fake's clock.
var webhookRetryDelays = []time.Duration{time.Minute, 10 * time.Minute, time.Hour, 4 * time.Hour, 12 * time.Hour}

// Webhook is one event the fake emitted: a resource created or changed, the
// body the service sends for it, and its delivery to each subscription
// whose scope matched.
type Webhook struct {
	// Function is the scope that caused it, e.g. "TRAN|PATCH".
	Function string
	// ObjectType is USER, NODE, TRAN, SUBNET or STATEMENT; ObjectID the
	// resource's _id.
	ObjectType string
	ObjectID   string
	// Status is the transaction, subnet or statement status after the
	// change, "" for users and nodes.
	Status string
	// Code is a transaction's recent_status.code after the change.
	Code string
	// UpdatedBy is SELF for changes made through the API, BACKEND otherwise.
	UpdatedBy string
	Date      time.Time
	// Body is the JSON body POSTed to subscribers.
	Body       []byte
	Deliveries []Delivery
}

// Payload decodes Body.
func (w Webhook) Payload() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(w.Body, &m)
	return m
}

// String is a one-line summary, used in Wait's failure message.
func (w Webhook) String() string {
	s := fmt.Sprintf("%s %s_%s", w.Function, w.ObjectType, w.ObjectID)
	if w.Status != "" {
		s += " " + w.Status
	}
	if w.Code != "" {
		s += " (" + w.Code + ")"
	}
	for _, d := range w.Deliveries {
		codes := make([]string, len(d.Attempts))
		for i, a := range d.Attempts {
			codes[i] = fmt.Sprint(a.Code)
		}
		s += fmt.Sprintf(" -> %s [%s]", d.URL, strings.Join(codes, ","))
	}
	return s
}

// Delivery is a webhook's delivery to one subscription.
type Delivery struct {
	SubscriptionID string
	URL            string
	// LogID is webhook_meta.log_id of the body.
	LogID    string
	Attempts []Attempt
}

// Attempt is one POST of a delivery and the receiver's answer; a receiver
// that could not be reached is recorded as 408.
type Attempt struct {
	Code int
	Text string
	Date time.Time
}

// WebhookMatcher selects webhooks for Wait.
type WebhookMatcher func(Webhook) bool

// ForTransaction matches the webhooks of a transaction that show a status
// ("" for any status).
func ForTransaction(id string, status Status) WebhookMatcher {
	return func(w Webhook) bool {
		return w.ObjectType == "TRAN" && w.ObjectID == id && (status == "" || w.Status == string(status))
	}
}

// ForFunction matches webhooks caused by one scope, e.g. "TRAN|PATCH".
func ForFunction(function string) WebhookMatcher {
	return func(w Webhook) bool { return w.Function == function }
}

// ForObject matches the webhooks of one resource, whatever its type.
func ForObject(id string) WebhookMatcher {
	return func(w Webhook) bool { return w.ObjectID == id }
}

// IgnoreVolatile is a go-cmp option for comparing decoded webhook payloads
// (or any decoded API object) whole: it ignores ids, dates, links, keys and
// tokens, which change from run to run.
func IgnoreVolatile() cmp.Option {
	volatile := map[string]bool{"_id": true, "$oid": true, "$date": true, "date": true, "created_on": true,
		"updated_on": true, "process_on": true, "date_joined": true, "last_updated": true, "log_id": true,
		"_links": true, "href": true, "id": true, "user_id": true, "node_id": true, "refresh_token": true,
		"oauth_key": true, "posted_date": true}
	return cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return volatile[k] })
}

// VerifySignature checks the two signature headers of a webhook delivery:
// X-Synapse-Signature, the hex HMAC-SHA1, and X-Synapse-Signature-Sha256,
// the hex HMAC-SHA256, both keyed with the client secret over
// "<object id>+<client id>". It reports whether both are present and valid.
func VerifySignature(h http.Header, objectID, clientID, clientSecret string) bool {
	sha1Hex, sha256Hex := signatures(objectID, clientID, clientSecret)
	return hmac.Equal([]byte(h.Get("X-Synapse-Signature")), []byte(sha1Hex)) &&
		hmac.Equal([]byte(h.Get("X-Synapse-Signature-Sha256")), []byte(sha256Hex))
}

func signatures(objectID, clientID, clientSecret string) (sha1Hex, sha256Hex string) {
	msg := []byte(objectID + "+" + clientID)
	m1 := hmac.New(sha1.New, []byte(clientSecret))
	m1.Write(msg)
	m256 := hmac.New(sha256.New, []byte(clientSecret))
	m256.Write(msg)
	return hex.EncodeToString(m1.Sum(nil)), hex.EncodeToString(m256.Sum(nil))
}

// hookRecord is the stored form of a Webhook.
type hookRecord struct {
	Webhook
	deliveries []*deliveryRecord
}

type deliveryRecord struct {
	hook     *hookRecord
	subID    string
	url      string
	logID    string
	attempts []Attempt
	done     bool
	// due is when the next attempt falls due: the event's date, then each
	// retry's. An attempt is dated at its due time, as processing steps are,
	// so a long Advance runs and dates every retry that fell due within it.
	due time.Time
}

// logEntry is one attempt in the webhook log.
type logEntry struct {
	d       *deliveryRecord
	attempt int // index into d.attempts
}

// retry is a failed delivery waiting for its next attempt.
type retry struct {
	at time.Time
	d  *deliveryRecord
}

// hooks captures every webhook and delivers them, in order, from one worker
// goroutine that holds no store lock, so a receiver may call the fake back.
type hooks struct {
	s        *Server
	mu       sync.Mutex
	cond     *sync.Cond
	captured []*hookRecord
	queue    []*deliveryRecord // FIFO of attempts to make
	inflight int
	retries  []retry // sorted by at
	log      []logEntry
	running  bool
	closed   bool
}

func newHooks(s *Server) *hooks {
	h := &hooks{s: s}
	h.cond = sync.NewCond(&h.mu)
	return h
}

// add records a webhook and queues its deliveries.
func (h *hooks) add(rec *hookRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.captured = append(h.captured, rec)
	if len(rec.deliveries) > 0 && !h.closed {
		h.queue = append(h.queue, rec.deliveries...)
		if !h.running {
			h.running = true
			go h.work()
		}
	}
	h.cond.Broadcast()
}

// work delivers queued attempts one at a time until the server closes.
func (h *hooks) work() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		for len(h.queue) == 0 && !h.closed {
			h.cond.Wait()
		}
		if h.closed {
			h.queue = nil
			h.cond.Broadcast()
			return
		}
		d := h.queue[0]
		h.queue = h.queue[1:]
		h.inflight++
		due := d.due
		h.mu.Unlock()
		a := h.s.attempt(d, due)
		h.mu.Lock()
		d.attempts = append(d.attempts, a)
		h.log = append(h.log, logEntry{d: d, attempt: len(d.attempts) - 1})
		if slices.Contains(webhookSuccess, a.Code) || len(d.attempts) > len(webhookRetryDelays) {
			d.done = true
		} else {
			at := due.Add(webhookRetryDelays[len(d.attempts)-1])
			d.due = at
			if !at.After(h.s.Now()) {
				// Already due (a long Advance): run it before Flush returns.
				h.queue = append(h.queue, d)
			} else {
				i := sort.Search(len(h.retries), func(i int) bool { return h.retries[i].at.After(at) })
				h.retries = slices.Insert(h.retries, i, retry{at: at, d: d})
			}
		}
		h.inflight--
		h.cond.Broadcast()
	}
}

// due queues the retries that fell due by now.
func (h *hooks) due(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for n < len(h.retries) && !h.retries[n].at.After(now) {
		h.queue = append(h.queue, h.retries[n].d)
		n++
	}
	if n > 0 {
		h.retries = slices.Delete(h.retries, 0, n)
		h.cond.Broadcast()
	}
}

// flush waits until no attempt is queued or in flight.
func (h *hooks) flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for (len(h.queue) > 0 || h.inflight > 0) && !h.closed {
		h.cond.Wait()
	}
}

func (h *hooks) close() {
	h.mu.Lock()
	h.closed = true
	h.cond.Broadcast()
	h.mu.Unlock()
}

// attempt POSTs one delivery and reports the receiver's answer, dated at
// the attempt's due time.
func (s *Server) attempt(d *deliveryRecord, due time.Time) Attempt {
	a := Attempt{Date: due}
	if !s.cfg.deliverWebhooks {
		a.Code, a.Text = http.StatusOK, "captured; not delivered (WithoutWebhookDelivery)"
		return a
	}
	req, err := http.NewRequest(http.MethodPost, d.url, bytes.NewReader(d.hook.Body))
	if err != nil {
		a.Code, a.Text = http.StatusRequestTimeout, err.Error()
		return a
	}
	sha1Hex, sha256Hex := signatures(d.hook.ObjectID, s.cfg.clientID, s.cfg.clientSecret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Synapse-Signature", sha1Hex)
	req.Header.Set("X-Synapse-Signature-Sha256", sha256Hex)
	resp, err := s.webhookClient.Do(req)
	if err != nil {
		a.Code, a.Text = http.StatusRequestTimeout, err.Error()
		return a
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	a.Code, a.Text = resp.StatusCode, string(text)
	return a
}

// emit records that a resource was created or changed: the webhook body is
// built now, from the view given, and queued for every active subscription
// whose scope holds function. Callers hold mu.
func (st *store) emit(at time.Time, function, objType, id string, view any) {
	if st.hooks == nil {
		return
	}
	rest, err := json.Marshal(view)
	if err != nil {
		return
	}
	rec := &hookRecord{Webhook: Webhook{Function: function, ObjectType: objType, ObjectID: id,
		UpdatedBy: st.actor, Date: at}}
	switch v := view.(type) {
	case txView:
		rec.Status = string(v.RecentStatus.Status)
		if v.RecentStatus.Code != nil {
			rec.Code = *v.RecentStatus.Code
		}
	case subnetView:
		rec.Status = string(v.Status)
	}
	logID := st.newID()
	rec.Body = webhookBody(id, function, logID, st.actor, at, rest)
	for _, sid := range st.subOrder {
		sub := st.subs[sid]
		if sub.active && slices.Contains(sub.scopes, function) {
			rec.deliveries = append(rec.deliveries, &deliveryRecord{hook: rec, subID: sub.id, url: sub.url, logID: logID, due: at})
		}
	}
	st.hooks.add(rec)
}

// WebhookCapture is the in-memory record of every webhook a Server emitted
// and of every delivery attempt.
type WebhookCapture struct{ h *hooks }

// Webhooks returns the server's webhook capture.
func (s *Server) Webhooks() WebhookCapture { return WebhookCapture{s.hooks} }

// All returns a copy of every webhook so far, oldest first.
func (c WebhookCapture) All() []Webhook {
	c.h.mu.Lock()
	defer c.h.mu.Unlock()
	out := make([]Webhook, len(c.h.captured))
	for i, rec := range c.h.captured {
		out[i] = rec.snapshot()
	}
	return out
}

// snapshot copies a record. Callers hold the hooks lock.
func (rec *hookRecord) snapshot() Webhook {
	w := rec.Webhook
	w.Body = slices.Clone(rec.Body)
	w.Deliveries = make([]Delivery, len(rec.deliveries))
	for i, d := range rec.deliveries {
		w.Deliveries[i] = Delivery{SubscriptionID: d.subID, URL: d.url, LogID: d.logID, Attempts: slices.Clone(d.attempts)}
	}
	return w
}

// Reset forgets every captured webhook (deliveries still queued go on).
func (c WebhookCapture) Reset() {
	c.h.mu.Lock()
	c.h.captured = nil
	c.h.mu.Unlock()
}

// waitBound is how long Wait waits, in real time, for a webhook caused by a
// goroutine other than the test's.
const waitBound = 5 * time.Second

// Wait returns the first captured webhook that matches. Webhooks are
// captured when the change happens, so a change the test already made is
// found at once; Wait only waits (up to 5 s of real time) for changes made
// by other goroutines. If none matches, it fails the test with the list of
// what was captured.
func (c WebhookCapture) Wait(tb testing.TB, match WebhookMatcher) Webhook {
	tb.Helper()
	deadline := time.Now().Add(waitBound)
	timer := time.AfterFunc(waitBound, func() {
		c.h.mu.Lock()
		c.h.cond.Broadcast()
		c.h.mu.Unlock()
	})
	defer timer.Stop()
	c.h.mu.Lock()
	for {
		for _, rec := range c.h.captured {
			if match(rec.snapshot()) {
				w := rec.snapshot()
				c.h.mu.Unlock()
				return w
			}
		}
		if !time.Now().Before(deadline) {
			break
		}
		c.h.cond.Wait()
	}
	var list strings.Builder
	for i, rec := range c.h.captured {
		fmt.Fprintf(&list, "\n  %d. %s", i+1, rec.snapshot())
	}
	c.h.mu.Unlock()
	if list.Len() == 0 {
		list.WriteString(" none")
	}
	tb.Fatalf("synapsefake: no webhook matched within %v; captured:%s", waitBound, list.String())
	return Webhook{}
}

// Flush blocks until no webhook delivery is queued or in flight. Retries
// scheduled on the clock are not waited for: Advance makes them due.
// Do not call it from a webhook receiver's handler.
func (s *Server) Flush() { s.hooks.flush() }

// webhookBody builds a webhook's body from the API view rest of the object
// id: the view with _id as {"$oid"}, plus _rest (the view itself) and
// webhook_meta. Views put _id first, so the body is spliced from rest
// rather than decoded and encoded again.
func webhookBody(id, function, logID, actor string, at time.Time, rest []byte) []byte {
	meta, _ := json.Marshal(struct {
		Date      map[string]int64 `json:"date"`
		Function  string           `json:"function"`
		LogID     string           `json:"log_id"`
		UpdatedBy string           `json:"updated_by"`
	}{map[string]int64{"$date": ms(at)}, function, logID, actor})
	oidJSON, _ := json.Marshal(map[string]string{"$oid": id})
	idJSON, _ := json.Marshal(id)
	prefix := append(append([]byte(`{"_id":`), idJSON...), ',')
	var b bytes.Buffer
	b.Grow(2*len(rest) + len(meta) + 64)
	if bytes.HasPrefix(rest, prefix) && len(rest) > len(prefix) {
		b.WriteString(`{"_id":`)
		b.Write(oidJSON)
		b.WriteByte(',')
		b.Write(rest[len(prefix) : len(rest)-1])
	} else {
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(rest, &fields)
		fields["_id"] = oidJSON
		obj, _ := json.Marshal(fields)
		b.Write(obj[:len(obj)-1])
	}
	b.WriteString(`,"_rest":`)
	b.Write(rest)
	b.WriteString(`,"webhook_meta":`)
	b.Write(meta)
	b.WriteByte('}')
	return b.Bytes()
}
