// Subscriptions, the wire's side: the subscription and webhook-log routes.

package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
)

// createSubscriptionRequest is the body of POST /subscriptions.
type createSubscriptionRequest struct {
	Scope *[]string `json:"scope"`
	URL   *string   `json:"url"`
}

// handleCreateSubscription serves POST /v3.1/subscriptions.
func (s *Wire) handleCreateSubscription(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decode[createSubscriptionRequest](r)
	switch {
	case err != nil:
	case req.URL == nil || !bank.ValidWebhookURL(*req.URL):
		err = apierr.Payload("invalid_url", "url must be an absolute http or https URL.")
	case req.Scope == nil:
		err = apierr.Payload("missing_scope", "scope is required.")
	default:
		err = bank.ValidSubscriptionScopes(*req.Scope)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	now := s.Now()
	answerValue(s, w, func() (bank.SubscriptionView, error) { return s.CreateSubscription(now, *req.URL, *req.Scope), nil })
}

// subscriptionsList is the wrapper of GET /subscriptions.
type subscriptionsList struct {
	bank.ListMeta
	Subscriptions      []bank.SubscriptionView `json:"subscriptions"`
	SubscriptionsCount int                     `json:"subscriptions_count"`
}

// handleListSubscriptions serves GET /v3.1/subscriptions, oldest first.
func (s *Wire) handleListSubscriptions(w http.ResponseWriter, r *http.Request) {
	servePage(s, w, r, access{gateway: true}, false,
		s.SubscriptionsPage,
		func(meta bank.ListMeta, items []bank.SubscriptionView, total int) any {
			return subscriptionsList{ListMeta: meta, Subscriptions: items, SubscriptionsCount: total}
		})
}

// handleGetSubscription serves GET /v3.1/subscriptions/{subscription_id}.
func (s *Wire) handleGetSubscription(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	answerValue(s, w, func() (bank.SubscriptionView, error) { return s.GetSubscription(r.PathValue("subscription_id")) })
}

// patchSubscriptionRequest is the body of PATCH /subscriptions/{id}.
type patchSubscriptionRequest struct {
	IsActive *bool     `json:"is_active"`
	URL      *string   `json:"url"`
	Scope    *[]string `json:"scope"`
}

// handlePatchSubscription serves PATCH /v3.1/subscriptions/{subscription_id},
// and POST, which synapsenode 2.0 sends for the same update.
func (s *Wire) handlePatchSubscription(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decode[patchSubscriptionRequest](r)
	switch {
	case err != nil:
	case req.IsActive == nil && req.URL == nil && req.Scope == nil:
		err = apierr.Payload("nothing_to_update", "Supply is_active, url or scope.")
	case req.URL != nil && !bank.ValidWebhookURL(*req.URL) && !bank.SchemelessWebhookURL(*req.URL):
		err = apierr.Payload("invalid_url", "url must be an absolute http or https URL, or a host name.")
	case req.Scope != nil:
		err = bank.ValidSubscriptionScopes(*req.Scope)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	answerValue(s, w, func() (bank.SubscriptionView, error) {
		return s.PatchSubscription(r.PathValue("subscription_id"), req.IsActive, req.URL, req.Scope)
	})

}

// httpResponse is one attempt in a log entry's http_responses.
type httpResponse struct {
	Date             int64  `json:"date"`
	HTTPResponseCode string `json:"http_response_code"`
	HTTPResponseText string `json:"http_response_text"`
	Chaos            string `json:"chaos,omitempty"` // what webhook chaos did (chaos.go); not in the real service's log
}

type oid struct {
	OID string `json:"$oid"`
}

// logEntryView is one attempt in GET /subscriptions/logs.
type logEntryView struct {
	ID               oid             `json:"_id"`
	ClientID         string          `json:"client_id"`
	Date             int64           `json:"date"`
	Function         string          `json:"function"`
	HTTPResponseCode string          `json:"http_response_code"`
	HTTPResponseText string          `json:"http_response_text"`
	HTTPResponses    []httpResponse  `json:"http_responses"`
	HTTPURL          string          `json:"http_url"`
	ObjID            string          `json:"obj_id"`
	SafeObj          json.RawMessage `json:"safe_obj"`
	SafeObjHash      string          `json:"safe_obj_hash"`
	UpdatedBy        string          `json:"updated_by"`
}

// logsList is the wrapper of GET /subscriptions/logs.
type logsList struct {
	ErrorCode string         `json:"error_code"`
	HTTPCode  string         `json:"http_code"`
	Limit     int            `json:"limit"`
	Logs      []logEntryView `json:"logs"`
	LogsCount int            `json:"logs_count"`
	Page      int            `json:"page"`
	PageCount int            `json:"page_count"`
	Success   bool           `json:"success"`
}

// handleWebhookLogs serves GET /v3.1/subscriptions/logs: every delivery
// attempt, newest first.
func (s *Wire) handleWebhookLogs(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{gateway: true}); err != nil {
		s.Fail(w, err)
		return
	}
	p, err := readPage(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	n, page := s.Hooks.logPage(p)
	out := logsList{ErrorCode: "0", HTTPCode: "200", Limit: p.PerPage, Logs: make([]logEntryView, 0, len(page)),
		LogsCount: n, Page: p.Number, PageCount: p.PageCount(n), Success: true}
	for _, e := range page {
		a := e.attempts[len(e.attempts)-1]
		responses := make([]httpResponse, len(e.attempts))
		for j, at := range e.attempts {
			responses[j] = httpResponse{Date: at.AtMS(), HTTPResponseCode: bank.Itoa(int(at.StatusCode())), HTTPResponseText: at.Answer(), Chaos: chaosString(at.ChaosFlags())}
		}
		body := EventBody(e.ev, s)
		sum := sha256.Sum256(body)
		out.Logs = append(out.Logs, logEntryView{ID: oid{s.LogID(e.ev.Sequence())}, ClientID: s.Cfg.ClientID, Date: a.AtMS(),
			Function: e.ev.Function(), HTTPResponseCode: bank.Itoa(int(a.StatusCode())), HTTPResponseText: a.Answer(), HTTPResponses: responses,
			HTTPURL: e.url, ObjID: e.ev.ObjectType() + "_" + e.ev.ObjectID(), SafeObj: safeObj(body),
			SafeObjHash: hex.EncodeToString(sum[:]), UpdatedBy: e.ev.Actor()})
	}
	s.Ok(w, out)
}

// loggedAttempt is an attempt of the webhook log, copied out of it.
type loggedAttempt struct {
	ev       *bank.Event
	url      string
	attempts []bank.AttemptRecord // the delivery's attempts up to this one
}

// logPage copies one page of the webhook log, newest first, and tells how
// many attempts it holds.
func (h *hooks) logPage(p bank.Page) (int, []loggedAttempt) {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	n := h.log.Len()
	lo, hi := p.Window(n)
	out := make([]loggedAttempt, 0, hi-lo)
	for i := lo; i < hi; i++ {
		e := h.log.At(n - 1 - i)
		out = append(out, loggedAttempt{ev: e.d.Event(), url: e.d.TargetURL(), attempts: slices.Clone(e.d.AttemptList()[:e.attempt+1])})
	}
	return n, out
}

// safeObjDates are the keys whose integer values are dates.
var safeObjDates = map[string]bool{"date": true, "created_on": true, "updated_on": true, "process_on": true,
	"date_joined": true, "last_updated": true, "date_start": true, "date_end": true, "posted_date": true}

// safeObj is a webhook body as the webhook log shows it: the delivered
// object with its dates as {"$date": ms}, as the spec's log entry has them.
// _rest, the API copy, keeps its plain integers. safe_obj_hash stays the
// SHA-256 of the delivered bytes.
func safeObj(body []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v map[string]any
	if dec.Decode(&v) != nil {
		return body
	}
	var wrap func(any) any
	wrap = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for k, e := range t {
				if n, ok := e.(json.Number); ok && safeObjDates[k] {
					t[k] = map[string]any{"$date": n}
				} else if k != "_rest" {
					t[k] = wrap(e)
				}
			}
		case []any:
			for i, e := range t {
				t[i] = wrap(e)
			}
		}
		return x
	}
	out, err := json.Marshal(wrap(v))
	if err != nil {
		return body
	}
	return out
}
