// Webhooks, the wire's side: delivery, signatures and the Webhook a test waits for.

package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// webhookFinal are the receiver's answers that end a delivery: a success
// (200, 204), or an answer the service does not retry (400, 404, 405, and
// 408, as an unreachable receiver is recorded). It retries the others.
var webhookFinal = []int{200, 204, 400, 404, 405, 408}

// webhookRetryDelays are the waits before each retry of a failed delivery:
// five retries within 24 hours of the fake's clock.
var webhookRetryDelays = []time.Duration{time.Minute, 10 * time.Minute, time.Hour, 4 * time.Hour, 12 * time.Hour}

// Webhook is documented at synapsefake.Webhook.
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
			if a.Chaos != "" {
				codes[i] += "(" + a.Chaos + ")"
			}
		}
		s += fmt.Sprintf(" -> %s [%s]", d.URL, strings.Join(codes, ","))
	}
	return s
}

// Delivery is documented at synapsefake.Delivery.
type Delivery struct {
	SubscriptionID string
	URL            string
	// LogID is webhook_meta.log_id of the body.
	LogID    string
	Attempts []bank.Attempt
}

// WebhookMatcher is documented at synapsefake.WebhookMatcher.
type WebhookMatcher func(Webhook) bool

// ForTransaction is documented at synapsefake.ForTransaction.
func ForTransaction(id string, status bank.Status) WebhookMatcher {
	return func(w Webhook) bool {
		return w.ObjectType == "TRAN" && w.ObjectID == id && (status == "" || w.Status == string(status))
	}
}

// ForFunction is documented at synapsefake.ForFunction.
func ForFunction(function string) WebhookMatcher {
	return func(w Webhook) bool { return w.Function == function }
}

// ForObject is documented at synapsefake.ForObject.
func ForObject(id string) WebhookMatcher {
	return func(w Webhook) bool { return w.ObjectID == id }
}

// IgnoreVolatile is documented at synapsefake.IgnoreVolatile.
func IgnoreVolatile() cmp.Option {
	volatile := map[string]bool{"_id": true, "$oid": true, "$date": true, "date": true, "created_on": true,
		"updated_on": true, "process_on": true, "date_joined": true, "last_updated": true, "log_id": true,
		"_links": true, "href": true, "id": true, "user_id": true, "node_id": true, "refresh_token": true,
		"oauth_key": true, "posted_date": true}
	return cmpopts.IgnoreMapEntries(func(k string, _ any) bool { return volatile[k] })
}

// VerifySignature is documented at synapsefake.VerifySignature.
func VerifySignature(h http.Header, objectID, clientID, clientSecret string) bool {
	sha1Hex, sha256Hex := Signatures(objectID, clientID, clientSecret)
	return hmac.Equal([]byte(h.Get("X-Synapse-Signature")), []byte(sha1Hex)) &&
		hmac.Equal([]byte(h.Get("X-Synapse-Signature-Sha256")), []byte(sha256Hex))
}

// Signatures returns the hex HMAC-SHA1 and HMAC-SHA256 of "<object id>+<client id>"
// keyed with clientSecret: the two signature headers VerifySignature checks.
func Signatures(objectID, clientID, clientSecret string) (sha1Hex, sha256Hex string) {
	msg := []byte(objectID + "+" + clientID)
	m1 := hmac.New(sha1.New, []byte(clientSecret))
	m1.Write(msg)
	m256 := hmac.New(sha256.New, []byte(clientSecret))
	m256.Write(msg)
	return hex.EncodeToString(m1.Sum(nil)), hex.EncodeToString(m256.Sum(nil))
}

// attemptPublic is the public copy of the stored attempt a.
func attemptPublic(a bank.AttemptRecord) bank.Attempt {
	return bank.Attempt{Code: int(a.StatusCode()), Text: a.Answer(), Date: time.UnixMilli(a.AtMS()).UTC(), Chaos: chaosString(a.ChaosFlags())}
}

// notDelivered is the text of every attempt under WithoutWebhookDelivery.
const notDelivered = "captured; not delivered (WithoutWebhookDelivery)"

// maxAttemptText bounds the receiver's answer kept for an attempt.
const maxAttemptText = 4096

// logEntry is one attempt in the webhook log.
type logEntry struct {
	d       *bank.DeliveryRecord
	attempt int32 // index into d.attempts
}

// retry is a failed delivery waiting for its next attempt.
type retry struct {
	at int64 // ms
	d  *bank.DeliveryRecord
}

// outbox is the ordered queue of one subscription's deliveries. A worker
// goroutine runs while it has work, so subscriptions are delivered
// concurrently (a receiver that hangs holds up only its own), each in the
// order its events happened.
type outbox struct {
	key   string
	queue []*bank.DeliveryRecord
	busy  bool // its worker is running
	dead  bool // Reset or Close: the worker drops what it was doing
}

// Default bounds of the capture and the webhook log, in estimated bytes of
// memory (WithWebhookCaptureLimit, WithWebhookLogLimit).
const (
	DefaultWebhookCaptureLimit = 64 << 20
	DefaultWebhookLogLimit     = 16 << 20
)

// hooks captures every webhook and delivers them, from one worker
// goroutine per subscription that holds no store lock, so a receiver may
// call the fake back. Lock order: the store's lock, then this one.
type hooks struct {
	s    *Wire
	Mu   sync.Mutex
	cond *sync.Cond
	seq  uint64
	// Version counts changes to the capture, for the dashboard.
	Version uint64
	// logged counts the attempts ever pushed to log, so that log.at(i) is
	// attempt number logged-log.len()+i; epoch counts the times the
	// capture and the log were replaced (reset, restore). A Wait's cursor
	// (waitScan) reads them.
	logged uint64
	epoch  uint64

	Events     fifo[*bank.Event] // the capture, oldest first
	eventBytes int64
	log        fifo[logEntry] // every attempt, oldest first
	logBytes   int64

	boxes   map[string]*outbox
	busy    int     // outboxes whose worker is running
	retries []retry // sorted by at
	ctx     context.Context
	cancel  context.CancelFunc // cancels the attempts in flight; made with boxes
	Closed  bool
	chaos   *chaos // nil until webhook chaos is first turned on

	// budget paces the attempts made when nobody waits for them; hurry
	// counts the Flush and Wait calls waiting, which lift it.
	budget budget
	hurry  int
	pacing bool // a timer will wake the workers waiting for the budget

	// nextRetry is retries[0].at, or later when none waits, as of the
	// last due: whoever adds a retry lowers it. Read without mu.
	nextRetry atomic.Int64
}

// DefaultWebhookRate is documented at synapsefake.DefaultWebhookRate.
const DefaultWebhookRate = 500

// budget is a token bucket of attempts: rate a second, up to burst saved.
type budget struct {
	rate   float64 // 0: no bound
	burst  float64
	tokens float64
	last   time.Time
}

func newBudget(perSecond int) budget {
	if perSecond == 0 {
		perSecond = DefaultWebhookRate
	}
	if perSecond < 0 {
		return budget{}
	}
	burst := max(1, float64(perSecond)/10)
	return budget{rate: float64(perSecond), burst: burst, tokens: burst}
}

// take spends an attempt at now if the bucket holds one, and otherwise
// says how long until it does.
func (b *budget) take(now time.Time) time.Duration {
	if b.rate == 0 {
		return 0
	}
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

// pace waits, holding mu between its waits, until the budget allows b's
// worker one more attempt, a Flush or Wait hurries the deliveries, or b is
// dropped. Workers waiting for the budget share one timer.
func (h *hooks) pace(b *outbox) {
	for !b.dead && h.hurry == 0 {
		wait := h.budget.take(time.Now())
		if wait <= 0 {
			return
		}
		if !h.pacing {
			h.pacing = true
			time.AfterFunc(wait, func() {
				h.Mu.Lock()
				h.pacing = false
				h.cond.Broadcast()
				h.Mu.Unlock()
			})
		}
		h.cond.Wait()
	}
}

// hurried runs wait with the budget lifted. Callers hold mu; wait may
// release it.
func (h *hooks) hurried(wait func()) {
	h.hurry++
	h.cond.Broadcast()
	defer func() { h.hurry-- }()
	wait()
}

// NewHooks returns the webhook side of s, with its budget and chaos set
// from s.Cfg; it panics on invalid chaos.
func NewHooks(s *Wire) *hooks {
	h := &hooks{s: s, budget: newBudget(s.Cfg.WebhookRate)}
	h.cond = sync.NewCond(&h.Mu)
	h.nextRetry.Store(math.MaxInt64)
	if c := s.Cfg.Chaos; c != nil {
		if err := c.validate(); err != nil {
			panic(fmt.Sprintf("synapsefake: WithWebhookChaos: %s", err.(*apierr.Error).Message))
		}
		h.setChaos(*c)
	}
	return h
}

// Add records an event and queues its deliveries. The store's lock is held.
func (h *hooks) Add(ev *bank.Event) {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	h.seq++
	h.Version++
	ev.SetSequence(h.seq)
	h.Events.push(ev)
	h.eventBytes += ev.Cost()
	h.trimEvents()
	if !h.Closed {
		for i := range ev.DeliveryList() {
			d := &ev.DeliveryList()[i]
			if h.s.Cfg.DeliverWebhooks {
				h.first(d)
			} else {
				h.record(d, bank.NewAttempt(d.DueMS(), http.StatusOK, notDelivered, 0))
			}
		}
	}
	h.cond.Broadcast()
}

// trimEvents forgets the oldest events while the capture is over its bound.
func (h *hooks) trimEvents() {
	limit := h.s.Cfg.CaptureLimit
	for limit >= 0 && h.eventBytes > limit && h.Events.Len() > 1 {
		ev := h.Events.pop()
		ev.Drop()
		h.eventBytes -= ev.Cost() + ev.AttemptsCost()
	}
}

// enqueue puts d at the end of its outbox and starts the outbox's worker.
func (h *hooks) enqueue(d *bank.DeliveryRecord) {
	key := d.SubscriptionID() // a subscription's outbox, or else the url's
	if key == "" {
		key = d.TargetURL()
	}
	b := h.boxes[key]
	if b == nil {
		if h.boxes == nil { // made on first use: most servers never deliver
			h.boxes = map[string]*outbox{}
			h.ctx, h.cancel = context.WithCancel(context.Background())
		}
		b = &outbox{key: key}
		h.boxes[key] = b
	}
	b.queue = append(b.queue, d)
	if h.chaos != nil {
		h.chaos.plan(d)
	}
	if !b.busy {
		b.busy = true
		h.busy++
		go h.work(b)
	}
}

// record stores an attempt of d, logs it, and schedules the retry a
// failure calls for.
func (h *hooks) record(d *bank.DeliveryRecord, a bank.AttemptRecord) {
	h.logAttempt(d, a)
	if slices.Contains(webhookFinal, int(a.StatusCode())) || len(d.AttemptList()) > len(webhookRetryDelays) {
		return // done
	}
	d.SetDue(d.DueMS() + webhookRetryDelays[len(d.AttemptList())-1].Milliseconds())
	if d.DueMS() <= bank.Ms(h.s.Now()) {
		// Already due (a long Advance): run it before Flush returns.
		h.enqueue(d)
		return
	}
	h.schedule(d)
}

// schedule waits for d's next attempt until d.due on the fake's clock.
// Retries due at the same time run in event order, whenever they were
// scheduled.
func (h *hooks) schedule(d *bank.DeliveryRecord) {
	i := sort.Search(len(h.retries), func(i int) bool {
		r := h.retries[i]
		return r.at > d.DueMS() || r.at == d.DueMS() && r.d.Event().Sequence() > d.Event().Sequence()
	})
	h.retries = slices.Insert(h.retries, i, retry{at: d.DueMS(), d: d})
	h.nextRetry.Store(h.retries[0].at)
}

// logAttempt stores an attempt of d and logs it.
func (h *hooks) logAttempt(d *bank.DeliveryRecord, a bank.AttemptRecord) {
	d.AddAttempt(a)
	h.s.Metrics.webhook(attemptOutcome(a))
	h.Version++
	cost := int64(bank.AttemptOverhead + len(a.Answer()))
	if !d.Event().IsDropped() {
		h.eventBytes += cost
		h.trimEvents()
	}
	h.pushLog(logEntry{d: d, attempt: int32(len(d.AttemptList()) - 1)})
	h.logBytes += cost + bank.LogEntryOverhead
	for limit := h.s.Cfg.WebhookLogLimit; limit >= 0 && h.logBytes > limit && h.log.Len() > 1; {
		e := h.log.pop()
		h.logBytes -= int64(bank.AttemptOverhead + bank.LogEntryOverhead + len(e.d.AttemptList()[e.attempt].Answer()))
	}
}

// pushLog adds e at the end of the log and counts it.
func (h *hooks) pushLog(e logEntry) {
	h.log.push(e)
	h.logged++
}

// work makes its outbox's attempts, one at a time, until it is empty.
func (h *hooks) work(b *outbox) {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	for len(b.queue) > 0 && !b.dead {
		if h.pace(b); b.dead {
			break
		}
		d := b.queue[0]
		b.queue[0] = nil
		b.queue = b.queue[1:]
		ctx := h.ctx
		var plan chaosPlan
		if h.chaos != nil {
			plan = h.chaos.plans[d]
			delete(h.chaos.plans, d)
		}
		h.Mu.Unlock()
		var extra, a bank.AttemptRecord
		if plan.extra != 0 {
			extra = h.s.attempt(ctx, d, plan.extra&chaosBadSignature != 0).WithChaos(plan.extra)
		}
		if plan.flags&chaosDropped != 0 {
			a = bank.NewAttempt(d.DueMS(), http.StatusServiceUnavailable, chaosDroppedText, 0)
		} else {
			a = h.s.attempt(ctx, d, plan.flags&chaosBadSignature != 0)
		}
		a = a.WithChaos(plan.flags)
		h.Mu.Lock()
		if b.dead {
			break
		}
		if plan.extra != 0 {
			h.logAttempt(d, extra)
		}
		h.record(d, a)
		h.cond.Broadcast()
	}
	b.busy = false
	h.busy--
	if h.boxes[b.key] == b && len(b.queue) == 0 {
		delete(h.boxes, b.key)
	}
	h.cond.Broadcast()
}

// due queues the retries that fell due by now.
func (h *hooks) due(now time.Time) {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	t := bank.Ms(now)
	n := 0
	for n < len(h.retries) && h.retries[n].at <= t {
		if h.chaos != nil {
			h.chaos.released(h.retries[n].d)
		}
		if !h.Closed {
			h.enqueue(h.retries[n].d)
		}
		n++
	}
	if n > 0 {
		h.retries = slices.Delete(h.retries, 0, n)
		h.cond.Broadcast()
	}
	next := int64(math.MaxInt64)
	if len(h.retries) > 0 {
		next = h.retries[0].at
	}
	h.nextRetry.Store(next)
}

// Redeliver makes one more attempt of the delivery-th delivery of the
// captured event numbered seq due now, as a retry falling due would; a
// retry it was waiting for is dropped. It reports whether the capture holds
// that delivery, and busy when its subscription's deliveries are queued or
// in flight (then nothing is changed).
func (h *hooks) Redeliver(seq uint64, delivery int) (found, busy bool) {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	n := h.Events.Len()
	i := sort.Search(n, func(i int) bool { return h.Events.At(i).Sequence() >= seq })
	if i == n || h.Events.At(i).Sequence() != seq || delivery < 0 || delivery >= len(h.Events.At(i).DeliveryList()) || h.Closed {
		return false, false
	}
	d := &h.Events.At(i).DeliveryList()[delivery]
	key := d.SubscriptionID()
	if key == "" {
		key = d.TargetURL()
	}
	if h.boxes[key] != nil {
		return true, true
	}
	h.retries = slices.DeleteFunc(h.retries, func(r retry) bool { return r.d == d })
	if h.chaos != nil {
		h.chaos.released(d)
	}
	d.SetDue(bank.Ms(h.s.Now()))
	if h.s.Cfg.DeliverWebhooks {
		h.enqueue(d)
	} else {
		h.record(d, bank.NewAttempt(d.DueMS(), http.StatusOK, notDelivered, 0))
	}
	h.cond.Broadcast()
	return true, false
}

// flushBound is the most Flush waits, in real time: the time one attempt
// may take, plus a second.
func (s *Wire) flushBound() time.Duration {
	d := s.WebhookClient.Timeout
	if d <= 0 {
		d = 10 * time.Second
	}
	return d + time.Second
}

// flush waits until no attempt is queued or in flight, for at most
// flushBound.
func (h *hooks) flush() {
	h.Mu.Lock()
	idle := h.busy == 0 || h.Closed
	h.Mu.Unlock()
	if idle {
		return // most calls: nothing to wait for, and no timer to start
	}
	bound := h.s.flushBound()
	deadline := time.Now().Add(bound)
	timer := time.AfterFunc(bound, func() {
		h.Mu.Lock()
		h.cond.Broadcast()
		h.Mu.Unlock()
	})
	defer timer.Stop()
	h.Mu.Lock()
	defer h.Mu.Unlock()
	h.hurried(func() {
		for h.busy > 0 && !h.Closed && time.Now().Before(deadline) {
			h.cond.Wait()
		}
	})
}

// stop cancels the attempts in flight and drops every queued delivery;
// nothing of them is recorded afterwards. Callers hold mu.
func (h *hooks) stop() {
	if h.cancel != nil {
		h.cancel()
	}
	for _, b := range h.boxes {
		b.dead, b.queue = true, nil
	}
	h.boxes, h.ctx, h.cancel = nil, nil, nil
	h.retries = nil
	if h.chaos != nil {
		h.chaos.forget()
	}
	h.cond.Broadcast()
}

// reset forgets every event, delivery, retry and log entry, and stops the
// attempts in flight.
func (h *hooks) reset() {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	h.stop()
	h.Events, h.eventBytes = fifo[*bank.Event]{}, 0
	h.log, h.logBytes = fifo[logEntry]{}, 0
	h.epoch++
}

func (h *hooks) Close() {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	h.Closed = true
	h.stop()
	if h.busy == 0 {
		return // most fakes: no timer to start (a stopped one holds h a while)
	}
	// The attempts in flight end with their context; their goroutines
	// are waited for (for at most closeBound), so that a test that
	// closes the fake leaves none of them running.
	deadline := time.Now().Add(closeBound)
	timer := time.AfterFunc(closeBound, func() {
		h.Mu.Lock()
		h.cond.Broadcast()
		h.Mu.Unlock()
	})
	defer timer.Stop()
	for h.busy > 0 && time.Now().Before(deadline) {
		h.cond.Wait()
	}
}

// closeBound is how long Close waits for the attempts in flight to end:
// a cancelled request ends at once, unless the network stack hangs.
const closeBound = 5 * time.Second

// attempt POSTs one delivery and reports the receiver's answer, dated at
// the attempt's due time; badSignature signs it with a wrong secret.
// Cancelling ctx abandons it.
func (s *Wire) attempt(ctx context.Context, d *bank.DeliveryRecord, badSignature bool) bank.AttemptRecord {
	at := d.DueMS()
	if !bank.ValidWebhookURL(d.TargetURL()) {
		// A URL stored without a scheme (PATCH /subscriptions/{id}) is never sent.
		return bank.NewAttempt(at, http.StatusRequestTimeout, "unreachable URL "+strconv.Quote(d.TargetURL())+": no http or https scheme", 0)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.TargetURL(), bytes.NewReader(EventBody(d.Event(), s)))
	if err != nil {
		return bank.NewAttempt(at, http.StatusRequestTimeout, err.Error(), 0)
	}
	secret := s.Cfg.ClientSecret
	if badSignature {
		secret = "chaos:" + secret
	}
	sha1Hex, sha256Hex := Signatures(d.Event().ObjectID(), s.Cfg.ClientID, secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Synapse-Signature", sha1Hex)
	req.Header.Set("X-Synapse-Signature-Sha256", sha256Hex)
	resp, err := s.WebhookClient.Do(req)
	if err != nil {
		return bank.NewAttempt(at, http.StatusRequestTimeout, err.Error(), 0)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxAttemptText))
	var text string
	if len(body) > 0 {
		text = string(body)
	}
	return bank.NewAttempt(at, int32(resp.StatusCode), text, 0)
}

// fifo is a queue that forgets from the front in O(1).
type fifo[T any] struct {
	ring []T // len(ring) is 0 or a power of two
	head int // index in ring of the oldest item
	n    int
}

func (q *fifo[T]) Len() int   { return q.n }
func (q *fifo[T]) At(i int) T { return q.ring[(q.head+i)&(len(q.ring)-1)] }

// push adds v at the end. A full ring doubles, so that a queue held at its
// bound by pops never copies its items again.
func (q *fifo[T]) push(v T) {
	if q.n == len(q.ring) {
		ring := make([]T, max(2*len(q.ring), 16))
		k := copy(ring, q.ring[q.head:])
		copy(ring[k:], q.ring[:q.head])
		q.ring, q.head = ring, 0
	}
	q.ring[(q.head+q.n)&(len(q.ring)-1)] = v
	q.n++
}

func (q *fifo[T]) pop() (v T) {
	var zero T
	v, q.ring[q.head] = q.ring[q.head], zero
	q.head = (q.head + 1) & (len(q.ring) - 1)
	q.n--
	if q.n == 0 && len(q.ring) > 1024 {
		*q = fifo[T]{} // let a drained queue's ring go
	}
	return v
}

// WebhookCapture is documented at synapsefake.WebhookCapture.
type WebhookCapture struct{ h *hooks }

// CapturedEvent is an event with a copy of its deliveries, taken under the
// hooks lock so that its Webhook can be built without it.
type CapturedEvent struct {
	Ev         *bank.Event
	Deliveries []Delivery
}

// captured copies the events from the from-th oldest up to, not
// including, the to-th. Callers hold mu.
func (h *hooks) captured(from, to int) []CapturedEvent {
	out := make([]CapturedEvent, 0, max(to-from, 0))
	for i := from; i < to; i++ {
		out = append(out, h.captured1(h.Events.At(i)))
	}
	return out
}

// captured1 copies one event. Callers hold mu.
func (h *hooks) captured1(ev *bank.Event) CapturedEvent {
	c := CapturedEvent{Ev: ev, Deliveries: make([]Delivery, len(ev.DeliveryList()))}
	for j := range ev.DeliveryList() {
		d := &ev.DeliveryList()[j]
		c.Deliveries[j] = Delivery{SubscriptionID: d.SubscriptionID(), URL: d.TargetURL(), LogID: h.s.LogID(ev.Sequence()), Attempts: Attempts(d.AttemptList())}
	}
	return c
}

// Attempts returns the public copies of the attempts recs.
func Attempts(recs []bank.AttemptRecord) []bank.Attempt {
	out := make([]bank.Attempt, len(recs))
	for i, a := range recs {
		out[i] = attemptPublic(a)
	}
	return out
}

// Webhook builds the public copy with the given body.
func (c CapturedEvent) Webhook(body []byte) Webhook {
	ev := c.Ev
	w := Webhook{Function: ev.Function(), ObjectType: ev.ObjectType(), ObjectID: ev.ObjectID(), Status: ev.Status(),
		UpdatedBy: ev.Actor(), Date: time.UnixMilli(ev.AtMS()).UTC(), Body: body, Deliveries: c.Deliveries}
	if ev.Object() == nil {
		w.Code = ev.TxCode()
	}
	return w
}

// All returns a copy of every captured webhook, oldest first. Bodies are
// encoded now, so reading is what costs, not emitting.
func (c WebhookCapture) All() []Webhook {
	c.h.Mu.Lock()
	list := c.h.captured(0, c.h.Events.Len())
	c.h.Mu.Unlock()
	out := make([]Webhook, len(list))
	for i, e := range list {
		out[i] = e.Webhook(EventBody(e.Ev, c.h.s))
	}
	return out
}

// pageChunk is how many events page copies under the lock at a time.
const pageChunk = 32

// Page hands take the captured webhooks, oldest first, from the first
// after the one numbered after or, when newest > 0, from the newest-th
// newest, until take has accepted limit of them or refuses one. Each body
// is encoded only when its webhook is handed over, without the lock, so a
// page costs what its webhooks cost, whatever the capture holds. It
// reports the number of the last webhook accepted (after when none) and
// whether the capture holds one after it.
func (c WebhookCapture) page(after uint64, newest, limit int, take func(Webhook) bool) (last uint64, more bool) {
	h := c.h
	last = after
	for taken, first := 0, true; ; first = false {
		h.Mu.Lock()
		n := h.Events.Len()
		i := sort.Search(n, func(i int) bool { return h.Events.At(i).Sequence() > last })
		if first && newest > 0 {
			i = max(n-newest, 0)
		}
		if taken == limit {
			h.Mu.Unlock()
			return last, i < n
		}
		chunk := h.captured(i, min(n, i+pageChunk, i+limit-taken))
		h.Mu.Unlock()
		if len(chunk) == 0 {
			return last, false
		}
		for _, e := range chunk {
			if !take(e.Webhook(EventBody(e.Ev, h.s))) {
				return last, true
			}
			last = e.Ev.Sequence()
			taken++
		}
	}
}

// Len is the number of webhooks captured, without encoding any.
func (c WebhookCapture) Len() int {
	c.h.Mu.Lock()
	defer c.h.Mu.Unlock()
	return c.h.Events.Len()
}

// Reset forgets every captured webhook (deliveries still queued go on).
func (c WebhookCapture) Reset() {
	c.h.Mu.Lock()
	defer c.h.Mu.Unlock()
	for c.h.Events.Len() > 0 {
		c.h.Events.pop().Drop()
	}
	c.h.Events, c.h.eventBytes = fifo[*bank.Event]{}, 0
}

// waitBound is how long Wait waits, in real time, for webhook deliveries
// in flight, or, on a clock that is not frozen, for any change.
const waitBound = 5 * time.Second

// Wait returns the first captured webhook that matches. Webhooks are
// captured when the change happens, so a change the test already made is
// found at once. If none matches, Wait fails the test with the list of
// what was captured and of the work pending on the clock (processing
// steps, returns, statements, webhook retries), each with when it falls
// due and the Advance that gets there.
//
// On a frozen clock (the default, or a *clock.Mock) Wait first runs what
// is due, as a request would, and then waits in real time only while
// webhook deliveries are queued or being attempted (up to 5 s): when none
// is, nothing can change until the clock moves, so it fails at once. A
// test whose change is made by another goroutine (the application's
// background worker) uses WaitWithin. On a clock that is not frozen, Wait
// waits up to 5 s for any change.
func (c WebhookCapture) Wait(tb TB, match WebhookMatcher) Webhook {
	tb.Helper()
	return c.wait(tb, waitBound, false, match)
}

// WaitWithin is Wait that waits up to bound of real time for a change
// made by another goroutine, whether or not a delivery is in flight and
// whatever the clock. A test of a webhook that must NOT come can give a
// short one.
func (c WebhookCapture) WaitWithin(tb TB, bound time.Duration, match WebhookMatcher) Webhook {
	tb.Helper()
	return c.wait(tb, bound, true, match)
}

// wait is Wait, and WaitWithin when patient: it fails tb with await's
// message.
func (c WebhookCapture) wait(tb TB, bound time.Duration, patient bool, match WebhookMatcher) Webhook {
	tb.Helper()
	w, failure := c.await(bound, patient, false, match)
	if failure != "" {
		tb.Fatalf("%s", failure)
	}
	return w
}

// waitListed is how many of the newest captured webhooks a failed wait's
// message lists.
const waitListed = 20

// Await is the first captured webhook that matches, waiting for it as Wait
// does (up to bound of real time, and on a frozen clock only while
// deliveries are in flight unless patient), or, when none comes, the
// message that says what was captured and what is pending. Each pass reads
// only what was captured or attempted since the last (waitScan), and the
// deadline is checked after every pass, so a wait ends within its bound
// plus one pass however fast webhooks arrive. A bodiless match reads no
// Body: only the match's is encoded.
func (c WebhookCapture) await(bound time.Duration, patient, bodiless bool, match WebhookMatcher) (Webhook, string) {
	h := c.h
	s := h.s
	frozen := s.ManualClock()
	s.RunDueFast()
	deadline := time.Now().Add(bound)
	timer := time.AfterFunc(bound, func() {
		h.Mu.Lock()
		h.cond.Broadcast()
		h.Mu.Unlock()
	})
	defer timer.Stop()
	scan := waitScan{match: match, bodiless: bodiless}
	idle := false // gave up because nothing was in flight on a frozen clock
	h.Mu.Lock()
	h.hurry++ // the deliveries it waits for are not paced
	h.cond.Broadcast()
	defer func() {
		h.Mu.Lock()
		h.hurry--
		h.Mu.Unlock()
	}()
	for {
		scan.start(h)
		h.Mu.Unlock()
		if w, ok := scan.pass(h); ok {
			return w, ""
		}
		h.Mu.Lock()
		if !time.Now().Before(deadline) {
			break
		}
		if scan.behind(h) {
			continue
		}
		if frozen && !patient && h.busy == 0 {
			idle = true
			break
		}
		h.cond.Wait()
	}
	n := h.Events.Len()
	newest := h.captured(max(n-waitListed, 0), n)
	h.Mu.Unlock()
	var msg strings.Builder
	now := s.Now()
	switch {
	case idle:
		fmt.Fprintf(&msg, "synapsefake: no webhook matched, and none can until the clock moves: it is frozen at %s and no delivery is in flight", bank.FmtInstant(now))
	case frozen:
		fmt.Fprintf(&msg, "synapsefake: no webhook matched within %v; the clock is frozen at %s", bound, bank.FmtInstant(now))
	default:
		fmt.Fprintf(&msg, "synapsefake: no webhook matched within %v; the clock is at %s", bound, bank.FmtInstant(now))
	}
	bank.DescribePending(&msg, now, s.pendingWork())
	switch earlier := n - len(newest); {
	case n == 0:
		msg.WriteString("\ncaptured: none")
	case earlier > 0:
		fmt.Fprintf(&msg, "\ncaptured: %d webhooks, the newest %d listed (%d earlier not listed):", n, len(newest), earlier)
	default:
		msg.WriteString("\ncaptured:")
	}
	for i, e := range newest {
		fmt.Fprintf(&msg, "\n  %d. %s", n-len(newest)+i+1, e.Webhook(nil))
	}
	return Webhook{}, msg.String()
}

// waitScan is a wait's cursor into the capture. A pass reads the events
// captured since the last pass, and again those read before that had an
// attempt since (a matcher may look at the deliveries), a few at a time,
// so a waiter holds no copy of the capture and its memory does not grow
// with it.
type waitScan struct {
	match WebhookMatcher
	// bodiless: match reads no Body, so only a match's is encoded.
	bodiless bool
	started  bool
	epoch    uint64 // hooks.epoch the cursor is in
	seq      uint64 // the newest event read
	logged   uint64 // hooks.logged when the last pass began: its attempts are read
	// The current pass reads up to these, as of its start.
	endSeq, endLogged uint64
}

// start begins a pass at what the capture holds now. Callers hold mu.
func (w *waitScan) start(h *hooks) {
	if !w.started || w.epoch != h.epoch {
		// The first pass, or the first since the capture was replaced,
		// reads every event.
		w.started, w.epoch, w.seq, w.logged = true, h.epoch, 0, h.logged
	}
	w.endSeq, w.endLogged = h.seq, h.logged
}

// behind reports whether the capture changed since the pass began.
// Callers hold mu.
func (w *waitScan) behind(h *hooks) bool {
	return w.epoch != h.epoch || h.seq != w.endSeq || h.logged != w.endLogged
}

// pass runs one pass and returns the first webhook read that matches. It
// takes mu for each chunk it copies and releases it to encode the bodies
// and match.
func (w *waitScan) pass(h *hooks) (Webhook, bool) {
	var chunk []CapturedEvent
	var reread map[*bank.Event]bool // the events read again this pass
	for k := w.logged; k < w.endLogged; {
		h.Mu.Lock()
		if h.epoch != w.epoch {
			h.Mu.Unlock()
			w.started = false // replaced: the next pass reads it all
			return Webhook{}, false
		}
		first := h.logged - uint64(h.log.Len())
		if k < first {
			// The log forgot attempts this wait had not read: read again
			// every event read before.
			h.Mu.Unlock()
			if wh, ok := w.events(h, 0, w.seq); ok {
				return wh, true
			}
			break
		}
		chunk = chunk[:0]
		for ; k < w.endLogged && len(chunk) < pageChunk; k++ {
			ev := h.log.At(int(k - first)).d.Event()
			if ev.IsDropped() || ev.Sequence() > w.seq || reread[ev] {
				continue
			}
			if reread == nil {
				reread = map[*bank.Event]bool{}
			}
			reread[ev] = true
			chunk = append(chunk, h.captured1(ev))
		}
		h.Mu.Unlock()
		for _, e := range chunk {
			if wh, ok := w.try(h, e); ok {
				return wh, true
			}
		}
	}
	if wh, ok := w.events(h, w.seq, w.endSeq); ok {
		return wh, true
	}
	if w.started {
		w.seq, w.logged = w.endSeq, w.endLogged
	}
	return Webhook{}, false
}

// try matches e's webhook, its body encoded first unless the matcher
// does not read it.
func (w *waitScan) try(h *hooks, e CapturedEvent) (Webhook, bool) {
	if w.bodiless {
		if wh := e.Webhook(nil); w.match(wh) {
			wh.Body = EventBody(e.Ev, h.s)
			return wh, true
		}
		return Webhook{}, false
	}
	wh := e.Webhook(EventBody(e.Ev, h.s))
	return wh, w.match(wh)
}

// events reads the captured events numbered after to upto, oldest first, a
// chunk at a time, and returns the first that matches. A capture replaced
// meanwhile ends the pass and restarts the cursor.
func (w *waitScan) events(h *hooks, after, upto uint64) (Webhook, bool) {
	for after < upto {
		h.Mu.Lock()
		if h.epoch != w.epoch {
			h.Mu.Unlock()
			w.started = false
			return Webhook{}, false
		}
		n := h.Events.Len()
		i := sort.Search(n, func(i int) bool { return h.Events.At(i).Sequence() > after })
		j := i
		for j < n && j < i+pageChunk && h.Events.At(j).Sequence() <= upto {
			j++
		}
		chunk := h.captured(i, j)
		h.Mu.Unlock()
		if len(chunk) == 0 {
			break
		}
		for _, e := range chunk {
			if wh, ok := w.try(h, e); ok {
				return wh, true
			}
			after = e.Ev.Sequence()
		}
	}
	return Webhook{}, false
}

// Webhooks is documented at synapsefake.Server.Webhooks.
func (s *Wire) Webhooks() WebhookCapture { return WebhookCapture{s.Hooks} }

// Flush is documented at synapsefake.Server.Flush.
func (s *Wire) Flush() { s.Hooks.flush() }

// CapturePage is c.page, for the console's webhook list.
func CapturePage(c WebhookCapture, after uint64, newest, limit int, take func(Webhook) bool) (last uint64, more bool) {
	return c.page(after, newest, limit, take)
}

// CaptureAwait is c.await, for the console's wait route.
func CaptureAwait(c WebhookCapture, bound time.Duration, patient, bodiless bool, match WebhookMatcher) (Webhook, string) {
	return c.await(bound, patient, bodiless, match)
}
