// Webhook chaos, the wire's side: the settings the hooks apply to deliveries.

package api

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
)

// Webhook chaos: the fake delivers some webhooks twice, out of order, late,
// only on a retry, or with a bad signature, as the real service may, so that
// a consumer's test can show its handler copes. Every decision is a pure
// function of the chaos seed, the subscription, the event's sequence number
// and the attempt's index, never of goroutine timing: the same seed and the
// same calls give the same chaos.

// ChaosSettings is documented at synapsefake.ChaosSettings.
type ChaosSettings struct {
	// Duplicate is the share of attempts POSTed twice in a row: an extra
	// copy (logged with chaos "duplicate"), then the attempt itself.
	Duplicate float64
	// Reorder is the share of deliveries held back until the subscription's
	// next delivery has been queued, and sent right after it; a delivery
	// no other follows is sent once the fake's clock is ChaosHoldLimit past
	// its event. One delivery per subscription is held at a time.
	Reorder float64
	// Delay is the share of deliveries whose first attempt falls due
	// DelayBy later on the fake's clock (Advance delivers it).
	Delay float64
	// DelayBy is how late a delayed delivery is; 0 is DefaultChaosDelay.
	DelayBy time.Duration
	// DropFirst is the share of deliveries whose first attempt is not
	// sent but logged as a 503, so that the retry schedule delivers them.
	DropFirst float64
	// BadSignature is the share of attempts sent with wrong
	// X-Synapse-Signature headers.
	BadSignature float64
}

// WebhookChaos is documented at synapsefake.WebhookChaos.
type WebhookChaos struct {
	// Seed picks the chaos: the same seed and the same calls give the same
	// deliveries.
	Seed uint64
	// Default applies to every subscription not in Subscriptions, and to
	// a statement's ad hoc webhook url.
	Default ChaosSettings
	// Subscriptions overrides Default by subscription id.
	Subscriptions map[string]ChaosSettings
}

// DefaultChaosDelay is documented at synapsefake.DefaultChaosDelay.
const DefaultChaosDelay = 5 * time.Minute

// ChaosHoldLimit is documented at synapsefake.ChaosHoldLimit.
const ChaosHoldLimit = time.Minute

// What chaos did to an attempt, as Attempt.Chaos lists it.
const (
	ChaosDelayed      = "delayed"       // its first attempt was DelayBy late
	ChaosReordered    = "reordered"     // held back until a later delivery was queued
	ChaosDropped      = "dropped"       // not sent; logged as a 503 to be retried
	ChaosDuplicate    = "duplicate"     // an extra copy of the attempt that follows
	ChaosBadSignature = "bad_signature" // sent with wrong signature headers
)

// chaosDroppedText is the logged answer of a dropped attempt.
const chaosDroppedText = "dropped by webhook chaos; the retry schedule delivers it"

// Flags of an attempt, stored in AttemptRecord.chaos, in Attempt.Chaos's
// order.
const (
	chaosDelayed uint8 = 1 << iota
	chaosReordered
	chaosDropped
	chaosDuplicate
	chaosBadSignature
)

var chaosNames = []string{ChaosDelayed, ChaosReordered, ChaosDropped, ChaosDuplicate, ChaosBadSignature}

// chaosString lists the flags, comma-separated; "" for none.
func chaosString(flags uint8) string {
	if flags == 0 {
		return ""
	}
	var names []string
	for i, n := range chaosNames {
		if flags&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// ChaosFlags parses what chaosString wrote.
func ChaosFlags(s string) (uint8, bool) {
	var flags uint8
	if s == "" {
		return 0, true
	}
	for n := range strings.SplitSeq(s, ",") {
		i := slices.Index(chaosNames, n)
		if i < 0 {
			return 0, false
		}
		flags |= 1 << i
	}
	return flags, true
}

func (c ChaosSettings) validate(name string) error {
	for _, p := range []struct {
		field string
		v     float64
	}{{"duplicate", c.Duplicate}, {"reorder", c.Reorder}, {"delay", c.Delay}, {"drop_first", c.DropFirst}, {"bad_signature", c.BadSignature}} {
		if math.IsNaN(p.v) || p.v < 0 || p.v > 1 {
			return apierr.Payload("invalid_chaos", "%s.%s must be a probability from 0 to 1, got %v.", name, p.field, p.v)
		}
	}
	if c.DelayBy < 0 {
		return apierr.Payload("invalid_chaos", "%s.delay_by must not be negative, got %v.", name, c.DelayBy)
	}
	return nil
}

func (c WebhookChaos) validate() error {
	if err := c.Default.validate("default"); err != nil {
		return err
	}
	for _, id := range slices.Sorted(maps.Keys(c.Subscriptions)) {
		if err := c.Subscriptions[id].validate("subscriptions." + id); err != nil {
			return err
		}
	}
	return nil
}

// on reports whether any setting can do anything.
func (c WebhookChaos) on() bool {
	if c.Default != (ChaosSettings{}) {
		return true
	}
	for _, s := range c.Subscriptions {
		if s != (ChaosSettings{}) {
			return true
		}
	}
	return false
}

func (c WebhookChaos) clone() WebhookChaos {
	c.Subscriptions = maps.Clone(c.Subscriptions)
	return c
}

// chaosSettingsJSON is ChaosSettings on the wire: delay_by is a Go
// duration string.
type chaosSettingsJSON struct {
	Duplicate    float64 `json:"duplicate"`
	Reorder      float64 `json:"reorder"`
	Delay        float64 `json:"delay"`
	DelayBy      string  `json:"delay_by"`
	DropFirst    float64 `json:"drop_first"`
	BadSignature float64 `json:"bad_signature"`
}

// webhookChaosJSON is WebhookChaos on the wire: the body of PUT
// /_fake/webhooks/chaos and the value of the binary's -webhook-chaos flag.
type webhookChaosJSON struct {
	Seed          uint64                       `json:"seed"`
	Default       chaosSettingsJSON            `json:"default"`
	Subscriptions map[string]chaosSettingsJSON `json:"subscriptions"`
}

func (c ChaosSettings) wire() chaosSettingsJSON {
	v := chaosSettingsJSON{Duplicate: c.Duplicate, Reorder: c.Reorder, Delay: c.Delay, DropFirst: c.DropFirst,
		BadSignature: c.BadSignature}
	if c.DelayBy > 0 {
		v.DelayBy = c.DelayBy.String()
	}
	return v
}

func (c WebhookChaos) wire() webhookChaosJSON {
	v := webhookChaosJSON{Seed: c.Seed, Default: c.Default.wire(), Subscriptions: map[string]chaosSettingsJSON{}}
	for id, s := range c.Subscriptions {
		v.Subscriptions[id] = s.wire()
	}
	return v
}

func (v chaosSettingsJSON) settings(name string) (ChaosSettings, error) {
	c := ChaosSettings{Duplicate: v.Duplicate, Reorder: v.Reorder, Delay: v.Delay, DropFirst: v.DropFirst,
		BadSignature: v.BadSignature}
	if v.DelayBy != "" {
		d, err := time.ParseDuration(v.DelayBy)
		if err != nil || d <= 0 {
			return c, apierr.Payload("invalid_chaos", `%s.delay_by must be a positive Go duration such as "5m", got %q.`, name, v.DelayBy)
		}
		c.DelayBy = d
	}
	return c, c.validate(name)
}

// ParseWebhookChaos is documented at synapsefake.ParseWebhookChaos.
func ParseWebhookChaos(data []byte) (WebhookChaos, error) {
	var v webhookChaosJSON
	if err := jsonx.UnmarshalObject(data, &v, true); err != nil {
		return WebhookChaos{}, err
	}
	c := WebhookChaos{Seed: v.Seed}
	var err error
	if c.Default, err = v.Default.settings("default"); err != nil {
		return WebhookChaos{}, err
	}
	for _, id := range slices.Sorted(maps.Keys(v.Subscriptions)) {
		s, err := v.Subscriptions[id].settings("subscriptions." + id)
		if err != nil {
			return WebhookChaos{}, err
		}
		if c.Subscriptions == nil {
			c.Subscriptions = map[string]ChaosSettings{}
		}
		c.Subscriptions[id] = s
	}
	return c, nil
}

// MarshalJSON writes the form ParseWebhookChaos reads.
func (c WebhookChaos) MarshalJSON() ([]byte, error) { return json.Marshal(c.wire()) }

// chaos is the webhook chaos of a hooks: its settings and the deliveries it
// is acting on. Guarded by the hooks lock.
type chaos struct {
	cfg    WebhookChaos
	active bool
	// held is the delivery each outbox holds back, by outbox key.
	held map[string]*bank.DeliveryRecord
	// marks are what chaos did to a delivery before its next attempt was
	// queued (delayed, reordered).
	marks map[*bank.DeliveryRecord]uint8
	// plans are what chaos does to the queued attempts.
	plans map[*bank.DeliveryRecord]chaosPlan
}

// chaosPlan is what chaos does to one attempt: flags of the attempt itself
// and, when not 0, of an extra copy sent before it.
type chaosPlan struct {
	flags, extra uint8
}

// setChaos installs c. Callers hold mu.
func (h *hooks) setChaos(c WebhookChaos) {
	if h.chaos == nil {
		if !c.on() {
			return // never on: nothing to keep
		}
		h.chaos = &chaos{held: map[string]*bank.DeliveryRecord{}, marks: map[*bank.DeliveryRecord]uint8{}, plans: map[*bank.DeliveryRecord]chaosPlan{}}
	}
	h.chaos.cfg, h.chaos.active = c.clone(), c.on()
}

// forget drops what chaos was doing. Callers hold the hooks lock.
func (c *chaos) forget() {
	clear(c.held)
	clear(c.marks)
	clear(c.plans)
}

func (c *chaos) settings(d *bank.DeliveryRecord) ChaosSettings {
	if s, ok := c.cfg.Subscriptions[d.SubscriptionID()]; ok && d.SubscriptionID() != "" {
		return s
	}
	return c.cfg.Default
}

// Kinds of decision, each drawing its own number.
const (
	rollDuplicate uint64 = iota + 1
	rollReorder
	rollDelay
	rollDrop
	rollBadSignature
)

// hit reports whether the decision kind about attempt number attempt of d
// goes chaos's way with probability p: a pure function of the seed, the
// outbox key, the event's seq and attempt.
func (c *chaos) hit(p float64, kind uint64, d *bank.DeliveryRecord, attempt int) bool {
	if p <= 0 {
		return false
	}
	x := bank.Splitmix(c.cfg.Seed ^ kind*0xd6e8feb86659fd93)
	key := d.OutboxKey()
	f := uint64(14695981039346656037) // FNV-1a
	for i := range len(key) {
		f = (f ^ uint64(key[i])) * 1099511628211
	}
	x = bank.Splitmix(x ^ f)
	x = bank.Splitmix(x ^ d.Event().Sequence())
	x = bank.Splitmix(x ^ uint64(attempt))
	return float64(x>>11)/(1<<53) < p
}

// first queues the first attempt of a new delivery, unless chaos delays it
// or holds it back; a delivery held back in its outbox is queued right
// after it. Callers hold the hooks lock.
func (h *hooks) first(d *bank.DeliveryRecord) {
	c := h.chaos
	if c == nil || !c.active {
		h.enqueue(d)
		return
	}
	set := c.settings(d)
	key := d.OutboxKey()
	switch {
	case c.hit(set.Delay, rollDelay, d, 0):
		by := set.DelayBy
		if by == 0 {
			by = DefaultChaosDelay
		}
		d.SetDue(d.DueMS() + by.Milliseconds())
		c.marks[d] |= chaosDelayed
		h.schedule(d)
		return
	case c.held[key] == nil && c.hit(set.Reorder, rollReorder, d, 0):
		c.held[key] = d
		c.marks[d] |= chaosReordered
		d.SetDue(d.DueMS() + ChaosHoldLimit.Milliseconds())
		h.schedule(d)
		return
	}
	h.enqueue(d)
	if held := c.held[key]; held != nil {
		delete(c.held, key)
		h.retries = slices.DeleteFunc(h.retries, func(r retry) bool { return r.d == held })
		held.SetDue(max(held.Event().AtMS(), d.DueMS()))
		h.enqueue(held)
	}
}

// plan decides what chaos does to the attempt of d being queued. Callers
// hold the hooks lock.
func (c *chaos) plan(d *bank.DeliveryRecord) {
	p := chaosPlan{flags: c.marks[d]}
	delete(c.marks, d)
	if c.active {
		set := c.settings(d)
		n := len(d.AttemptList())
		switch {
		case n == 0 && c.hit(set.DropFirst, rollDrop, d, n):
			p.flags |= chaosDropped
		case c.hit(set.Duplicate, rollDuplicate, d, n):
			p.extra = chaosDuplicate
			if c.hit(set.BadSignature, rollBadSignature, d, n) {
				p.extra |= chaosBadSignature
			}
			n++ // the copy is attempt n, the attempt itself n+1
			fallthrough
		default:
			if c.hit(set.BadSignature, rollBadSignature, d, n) {
				p.flags |= chaosBadSignature
			}
		}
	}
	if p != (chaosPlan{}) {
		c.plans[d] = p
	}
}

// released is called for a retry falling due: a held delivery is no
// longer held. Callers hold the hooks lock.
func (c *chaos) released(d *bank.DeliveryRecord) {
	if key := d.OutboxKey(); c.held[key] == d {
		delete(c.held, key)
	}
}

// SetWebhookChaos is documented at synapsefake.Server.SetWebhookChaos.
func (s *Wire) SetWebhookChaos(c WebhookChaos) error {
	if err := c.validate(); err != nil {
		return err
	}
	h := s.Hooks
	h.Mu.Lock()
	defer h.Mu.Unlock()
	h.setChaos(c)
	return nil
}

// WebhookChaos is documented at synapsefake.Server.WebhookChaos.
func (s *Wire) WebhookChaos() WebhookChaos {
	h := s.Hooks
	h.Mu.Lock()
	defer h.Mu.Unlock()
	if h.chaos == nil {
		return WebhookChaos{}
	}
	return h.chaos.cfg.clone()
}

// ValidateChaos is c's check (WithWebhookChaos's), for the layers above.
func ValidateChaos(c WebhookChaos) error { return c.validate() }

// CloneChaos answers a copy of c that shares no memory with it.
func CloneChaos(c WebhookChaos) WebhookChaos { return c.clone() }

// ChaosWire is c as the control API shows it.
func ChaosWire(c WebhookChaos) any { return c.wire() }
