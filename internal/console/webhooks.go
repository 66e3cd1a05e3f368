// Webhooks, the console's side: the control routes that list, flush, wait for and reset deliveries,
// and make a subscription.

package console

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// controlSubscriptionRequest is the body of POST /_fake/subscriptions.
type controlSubscriptionRequest struct {
	URL    string   `json:"url"`
	Scopes []string `json:"scopes"`
}

func (req controlSubscriptionRequest) Validate() error {
	if !bank.ValidWebhookURL(req.URL) {
		return apierr.Payload("invalid_url", "url must be an absolute http or https URL.")
	}
	if req.Scopes != nil && len(req.Scopes) == 0 {
		// Absent means all eight; an empty list is refused, as the API does.
		return apierr.Payload("missing_scope", "scopes, when given, must list at least one scope.")
	}
	for _, sc := range req.Scopes {
		if !reference.IsSubscriptionScope(sc) {
			return apierr.Payload("invalid_scope", "Unknown subscription scope %q.", sc)
		}
	}
	return nil
}

// controlCreateSubscription serves POST /_fake/subscriptions.
func (s *Console) controlCreateSubscription(w http.ResponseWriter, r *http.Request) {
	req, err := controlBodyValid[controlSubscriptionRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	sub, err := s.AddSubscription(req.URL, req.Scopes...)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"subscription": map[string]any{"_id": sub.ID, "url": sub.URL,
		"scope": bank.CloneList(sub.Scopes), "is_active": sub.IsActive}})
}

type controlWebhookView struct {
	Function   string                `json:"function"`
	ObjectType string                `json:"object_type"`
	ObjectID   string                `json:"object_id"`
	Status     string                `json:"status"`
	Code       string                `json:"code"`
	UpdatedBy  string                `json:"updated_by"`
	Date       int64                 `json:"date"`
	Payload    json.RawMessage       `json:"payload"`
	Deliveries []controlDeliveryView `json:"deliveries"`
}

type controlDeliveryView struct {
	SubscriptionID string               `json:"subscription_id"`
	URL            string               `json:"url"`
	LogID          string               `json:"log_id"`
	Attempts       []controlAttemptView `json:"attempts"`
}

type controlAttemptView struct {
	Code  int    `json:"code"`
	Text  string `json:"text"`
	Date  int64  `json:"date"`
	Chaos string `json:"chaos,omitempty"` // what webhook chaos did (chaos.go)
}

// Bounds of a page of GET /_fake/webhooks: ?limit= webhooks (from 1 to
// maxControlWebhooks; defaultControlWebhooks without it), and at most
// MaxWebhookPageBytes bytes of JSON.
const (
	maxControlWebhooks     = 100_000
	defaultControlWebhooks = 1_000
)

// MaxWebhookPageBytes is documented at synapsefake.MaxWebhookPageBytes.
const MaxWebhookPageBytes = 4 << 20

// controlWebhooks serves GET /_fake/webhooks?limit=&cursor=: one page of
// the captured webhooks, oldest first. Without a cursor it starts at the
// oldest, or with ?limit=N at the N newest; with a cursor, after the last
// webhook of the page that gave it. next_cursor is there when more
// webhooks follow the page.
func (s *Console) controlWebhooks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, newest := defaultControlWebhooks, 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxControlWebhooks {
			s.Fail(w, apierr.Payload("invalid_limit", "limit must be an integer from 1 to %d.", maxControlWebhooks))
			return
		}
		limit, newest = n, n
	}
	var after uint64
	if v := q.Get("cursor"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			s.Fail(w, apierr.Payload("invalid_cursor", "cursor must be a next_cursor of an earlier answer."))
			return
		}
		after, newest = n, 0
	}
	// What the answer adds around the webhooks, with the longest cursor.
	const envelope = len(`{"next_cursor":"18446744073709551615","success":true,"webhooks":[]}`)
	out, size := []json.RawMessage{}, envelope
	last, more := api.CapturePage(s.Webhooks(), after, newest, limit, func(h api.Webhook) bool {
		b, _ := json.Marshal(controlWebhook(h)) // its payload is valid JSON: nothing fails
		if len(out) > 0 && size+len(b)+1 > MaxWebhookPageBytes {
			return false
		}
		out, size = append(out, b), size+len(b)+1 // and its comma
		return true
	})
	fields := map[string]any{"webhooks": out}
	if more {
		fields["next_cursor"] = strconv.FormatUint(last, 10)
	}
	s.ControlOK(w, fields)
}

// controlWebhook is a captured webhook as GET /_fake/webhooks shows it.
func controlWebhook(h api.Webhook) controlWebhookView {
	v := controlWebhookView{Function: h.Function, ObjectType: h.ObjectType, ObjectID: h.ObjectID,
		Status: h.Status, Code: h.Code, UpdatedBy: h.UpdatedBy, Date: bank.Ms(h.Date), Payload: h.Body,
		Deliveries: make([]controlDeliveryView, len(h.Deliveries))}
	if !json.Valid(v.Payload) {
		v.Payload = json.RawMessage("null")
	}
	for j, d := range h.Deliveries {
		dv := controlDeliveryView{SubscriptionID: d.SubscriptionID, URL: d.URL, LogID: d.LogID,
			Attempts: make([]controlAttemptView, len(d.Attempts))}
		for k, a := range d.Attempts {
			dv.Attempts[k] = controlAttemptView{Code: a.Code, Text: a.Text, Date: bank.Ms(a.Date), Chaos: a.Chaos}
		}
		v.Deliveries[j] = dv
	}
	return v
}

// controlResetWebhooks serves DELETE /_fake/webhooks.
func (s *Console) controlResetWebhooks(w http.ResponseWriter, r *http.Request) {
	s.Webhooks().Reset()
	s.ControlOK(w, nil)
}

// controlFlush serves POST /_fake/webhooks/flush: Flush, then how many
// webhooks the capture holds.
func (s *Console) controlFlush(w http.ResponseWriter, r *http.Request) {
	if _, err := ControlBody[struct{}](r); err != nil {
		s.Fail(w, err)
		return
	}
	s.Flush()
	s.ControlOK(w, map[string]any{"webhooks_count": s.Webhooks().Len()})
}

// controlWaitRequest is the body of POST /_fake/webhooks/wait: what the
// webhook must be (every field given must match) and how long to wait.
type controlWaitRequest struct {
	ObjectID string `json:"object_id"`
	Function string `json:"function"`
	Status   string `json:"status"`
	Timeout  string `json:"timeout"` // a Go duration, at most 30s; default 5s
}

// matcher is the request as a WebhookMatcher. It reads no Body.
func (req controlWaitRequest) matcher() api.WebhookMatcher {
	return func(h api.Webhook) bool {
		return (req.ObjectID == "" || h.ObjectID == req.ObjectID) && (req.Function == "" || h.Function == req.Function) &&
			(req.Status == "" || h.Status == req.Status)
	}
}

// controlWait serves POST /_fake/webhooks/wait: Wait over HTTP. It answers
// the first captured webhook that matches, waiting for deliveries in flight
// up to the timeout; when none comes, 404 / "404" no_matching_webhook with
// what Wait says (what was captured, and on a frozen clock what is pending
// and when it falls due), its calls the caller's.
func (s *Console) controlWait(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlWaitRequest](r)
	timeout := time.Duration(defaultControlWait) * time.Millisecond
	if err == nil && req.Timeout != "" {
		timeout, err = time.ParseDuration(req.Timeout)
		if err != nil || timeout < 0 || timeout > time.Duration(maxControlWait)*time.Millisecond {
			err = apierr.Payload("invalid_timeout", "timeout must be a duration from 0s to %ds, as \"5s\".", maxControlWait/1000)
		}
	}
	if err == nil && req.ObjectID == "" && req.Function == "" && req.Status == "" {
		err = apierr.Payload("missing_match", "Give at least one of object_id, function and status.")
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	h, failure := api.CaptureAwait(s.Webhooks(), timeout, false, true, req.matcher()) // Wait, with the request's bound
	if failure != "" {
		s.Fail(w, apierr.New(reference.ErrNotFound, "no_matching_webhook", "%s", callerOf(r).Phrase(strings.TrimPrefix(failure, "synapsefake: "))))
		return
	}
	s.ControlOK(w, map[string]any{"webhook": controlWebhook(h)})
}
