// The dashboard, the console's side: its pages, rendering and overview.

package console

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// The dashboard is a few server-rendered pages under /_fake/ui/, part of
// the control API (WithoutControlAPI turns both off). Its buttons call the
// control API's routes, which call the scenario helpers; the routes here
// only add what the control API has no route for: the clock's calendar
// steps, redelivering a webhook and checking a card swipe without making
// it. Pages show the newest uiDefaultLimit objects of a list (?limit= up
// to uiMaxLimit), so they stay fast with a large store; a stream of
// server-sent events (ui/events) tells the page when to fetch itself again.

// UIPrefix is the dashboard's root, where / redirects.
const UIPrefix = ControlPrefix + "ui/"

// Bounds of the dashboard's lists.
const (
	uiDefaultLimit = 100
	uiMaxLimit     = 1000
)

// uiPoll is how often the event stream looks for a change.
const uiPoll = 200 * time.Millisecond

//go:embed ui
var uiFiles embed.FS

// uiPages are the page templates, each the layout plus its "main",
// parsed once for every server of the process: the control root a page's
// links lead to is its data's Base (and $.Base in every template, which
// "rows" and "at" pass on), not part of the template.
var uiPages = sync.OnceValue(func() map[string]*template.Template {
	funcs := template.FuncMap{
		"money":    func(c int64) string { return bank.Fixed2(bank.Cents(c)) },
		"lastFour": bank.LastFour,
		// when is an instant as Wait's failure message writes it: UTC,
		// then the banking calendar's Eastern time.
		"when": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return bank.FmtInstant(t)
		},
		"day": func(t time.Time) string { return t.UTC().Format("2006-01-02") },
		// stamp is a list's short time: month, day and time of day, UTC;
		// et its Eastern wall-clock time beside it.
		"stamp": func(t time.Time) string { return t.UTC().Format("01-02 15:04:05") },
		"et":    bank.FmtEastern,
		"lower": strings.ToLower,
		// statusClass is the class of a status tag: s- and the status in
		// lower case, its | and _ turned into - (SUBMITTED|MFA_PENDING is
		// s-submitted-mfa-pending).
		"statusClass": func(status string) string {
			return "s-" + strings.NewReplacer("|", "-", "_", "-", " ", "-").Replace(strings.ToLower(status))
		},
		// open is the link that opens id's detail beside the list at self.
		"open": func(self, id string) string {
			sep := "?"
			if strings.Contains(self, "?") {
				sep = "&"
			}
			return self + sep + "open=" + url.QueryEscape(id)
		},
		// rows is a list and the page it is on, for a row template, with
		// the control root its links lead to.
		"rows": func(base, self string, list any) any {
			return struct {
				Base, Self string
				List       any
			}{base, self, list}
		},
		// at is v for a template whose links lead to the control root
		// base: it reads v as .V and base as $.Base.
		"at": func(base string, v any) any {
			return struct {
				Base string
				V    any
			}{base, v}
		},
		"nodeTypes": reference.NodeTypes,
	}
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(uiFiles, "ui/layout.html"))
	pages := map[string]*template.Template{}
	for _, name := range []string{"overview", "transactions", "webhooks", "requests", "oauth", "subscriptions"} {
		pages[name] = template.Must(template.Must(base.Clone()).ParseFS(uiFiles, "ui/"+name+".html", "ui/detail.html"))
	}
	return pages
})

// controlRoot is where the server's control API is served: /_fake/, or a
// made platform's /_fake/platforms/{client_id}/.
func (s *Console) controlRoot() string {
	if s.CtlBase == "" {
		return ControlPrefix
	}
	return s.CtlBase
}

// uiPlatform is one entry of the dashboard's platform switcher.
type uiPlatform struct {
	Name, ClientID, URL string
	Current             bool
}

// uiMaxPlatforms bounds the switcher's list; the current platform is
// always in it.
const uiMaxPlatforms = 100

// uiPlatforms is the switcher's list: nil for a server that is not one of
// several platforms.
func (s *Console) uiPlatforms() (list []uiPlatform, more int) {
	all := s.Host.PlatformCores()
	if len(all) < 2 {
		return nil, 0
	}
	for i, o := range all {
		if i >= uiMaxPlatforms && o != s {
			more++
			continue
		}
		list = append(list, uiPlatform{Name: o.Cfg.ClientName, ClientID: o.Cfg.ClientID,
			URL: o.controlRoot() + "ui/", Current: o == s})
	}
	return list, more
}

// uiPage is what every page's template gets.
type uiPage struct {
	// Base is the root of the control API the page's links lead to:
	// /_fake/, or a made platform's /_fake/platforms/{client_id}/.
	Base   string
	Tab    string
	Now    time.Time
	Manual bool // the clock moves only when told
	Limit  int
	Shown  int // objects shown
	Total  int // objects that matched, shown or not
	Data   any
	// Self is the page's path and query without open, for links that
	// open a row's detail beside the list.
	Self string
	// Open is the detail shown beside the list (?open=ID), nil for none.
	Open *bank.UIDetail
	// Datalists of the forms.
	ReturnCodes   []reference.Code
	CardCodes     []reference.Code
	DishonorCodes []reference.Code
	ContestCodes  []reference.Code
	// Platforms is the platform switcher, empty for a server that is not
	// one of several; MorePlatforms those left out of it.
	Platforms     []uiPlatform
	MorePlatforms int
}

// uiRender answers a page, with the detail of ?open= beside its list.
func (s *Console) uiRender(w http.ResponseWriter, r *http.Request, tab string, p uiPage) {
	s.uiRenderStatus(w, r, http.StatusOK, tab, p)
}

// uiRenderStatus is uiRender with another status than 200.
func (s *Console) uiRenderStatus(w http.ResponseWriter, r *http.Request, status int, tab string, p uiPage) {
	p.Base, p.Tab, p.Now, p.Manual = s.controlRoot(), tab, s.Now(), s.ManualClock()
	q := r.URL.Query()
	if id := strings.TrimSpace(q.Get("open")); id != "" && p.Open == nil {
		p.Open = s.uiDetail(id)
	}
	q.Del("open")
	p.Self = p.Base + strings.TrimPrefix(r.URL.Path, ControlPrefix)
	p.Platforms, p.MorePlatforms = s.uiPlatforms()
	if len(q) > 0 {
		p.Self += "?" + q.Encode()
	}
	if p.Open != nil {
		p.ReturnCodes = append(bank.CodesActingOn(reference.OfEntry), append(reference.InterchangeCodes(), reference.WireReturnCodes()...)...)
		p.DishonorCodes, p.ContestCodes = bank.CodesActingOn(reference.OfReturn), bank.CodesActingOn(reference.OfDishonor)
		p.CardCodes = reference.InterchangeCodes()
	}
	var buf bytes.Buffer
	if err := uiPages()[tab].ExecuteTemplate(&buf, "layout.html", p); err != nil {
		s.Fail(w, apierr.New(reference.ErrServer, "internal_error", "dashboard: %v", err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// uiLimit reads ?limit=, refusing what is not a number from 1 to uiMaxLimit.
func uiLimit(r *http.Request) (int, error) { return queryLimit(r, uiDefaultLimit, uiMaxLimit) }

// uiStatic serves GET /_fake/ui/static/{file}: the stylesheet and script.
func (s *Console) uiStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	data, err := fs.ReadFile(uiFiles, "ui/static/"+name)
	if err != nil || strings.Contains(name, "/") {
		s.Fail(w, apierr.RouteNotFound)
		return
	}
	w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(data)
}

// UIFavicon answers GET /favicon.ico, which a browser asks for beside any
// page of the fake it opens (the dashboard's pages name none): no icon,
// and no entry in the API's journal.
func UIFavicon(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "max-age=86400")
	w.WriteHeader(http.StatusNoContent)
}

// uiOverview serves GET /_fake/ui/?name=&limit=: users, newest first, with
// their nodes and balances; name keeps the users whose name or email, or
// one of whose nodes' nickname, holds it (in any case).
func (s *Console) uiOverview(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	name := strings.TrimSpace(r.URL.Query().Get("name"))
	users, total := s.DashboardUsers(name, limit)
	s.uiRender(w, r, "overview", uiPage{Limit: limit, Shown: len(users), Total: total,
		Data: struct {
			Name  string
			Users []bank.UIUser
		}{name, users}})
}

// uiTransactions serves GET /_fake/ui/transactions?user=&node=&status=&limit=:
// the newest transactions that match, with their timelines and moves.
func (s *Console) uiTransactions(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	q := r.URL.Query()
	f := bank.UITxFilter{User: strings.TrimSpace(q.Get("user")), Node: strings.TrimSpace(q.Get("node")), Status: bank.Status(q.Get("status"))}
	if err == nil && f.Status != "" && f.Status.ID() == "" {
		err = apierr.Payload("invalid_status", "Unknown transaction status %q.", f.Status)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	list, total := s.DashboardTxs(f, limit, s.Now(), s.ManualClock())
	s.uiRender(w, r, "transactions", uiPage{Limit: limit, Shown: len(list), Total: total,
		Data: struct {
			Filter   bank.UITxFilter
			Statuses []bank.Status
			List     []bank.UITx
		}{f, processingStatuses(), list}})
}

// processingStatuses lists every transaction status, for the filter.
func processingStatuses() []bank.Status {
	return []bank.Status{bank.StatusQueuedBySynapse, bank.StatusQueuedByReceiver, bank.StatusCreated, bank.StatusProcessingDebit,
		bank.StatusProcessingCredit, bank.StatusSettled, bank.StatusCanceled, bank.StatusReturned}
}

// uiWebhookBytes bounds the payloads and receivers' answers a webhooks
// page shows, in bytes as escaped in its HTML.
const uiWebhookBytes = 4 << 20

// uiWebhooksPage serves GET /_fake/ui/webhooks?object=&limit=&before=: the
// newest captured webhooks (older than the one numbered before), with
// payloads, signatures and every attempt, until uiWebhookBytes; a link
// pages on to older ones.
func (s *Console) uiWebhooksPage(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	q := r.URL.Query()
	object := q.Get("object")
	var before uint64
	if v := q.Get("before"); v != "" {
		if before, err = strconv.ParseUint(v, 10, 64); err != nil {
			s.Fail(w, apierr.Payload("invalid_before", "before must be the number of a webhook shown."))
			return
		}
	}
	h := s.Hooks
	var picked []api.CapturedEvent
	h.Mu.Lock()
	top := h.Events.Len()
	if before > 0 {
		top = sort.Search(top, func(i int) bool { return h.Events.At(i).Sequence() >= before })
	}
	total := 0
	for i := top - 1; i >= 0; i-- {
		ev := h.Events.At(i)
		if object != "" && ev.ObjectID() != object {
			continue
		}
		total++
		if len(picked) == limit {
			if object == "" {
				total = top
				break
			}
			continue
		}
		ds := ev.DeliveryList()
		c := api.CapturedEvent{Ev: ev, Deliveries: make([]api.Delivery, len(ds))}
		for j := range ds {
			d := &ds[j]
			c.Deliveries[j] = api.Delivery{SubscriptionID: d.SubscriptionID(), URL: d.TargetURL(), Attempts: api.Attempts(d.AttemptList())}
		}
		picked = append(picked, c)
	}
	h.Mu.Unlock()
	list := make([]bank.UIHook, 0, len(picked))
	size := 0
	for _, c := range picked {
		v := s.uiHook(c)
		n := htmlLen(v.Payload)
		for _, d := range v.Deliveries {
			for _, a := range d.Attempts {
				n += htmlLen(a.Text)
			}
		}
		if len(list) > 0 && size+n > uiWebhookBytes {
			break
		}
		size += n
		list = append(list, v)
	}
	older := "" // the next page's query, "" when none
	if len(list) > 0 && len(list) < total {
		q := url.Values{"limit": {strconv.Itoa(limit)}, "before": {strconv.FormatUint(list[len(list)-1].Seq, 10)}}
		if object != "" {
			q.Set("object", object)
		}
		older = "?" + q.Encode()
	}
	s.uiRender(w, r, "webhooks", uiPage{Limit: limit, Shown: len(list), Total: total,
		Data: struct {
			Object, Older string
			List          []bank.UIHook
		}{object, older, list}})
}

// uiHook is a captured webhook with its payload, signature check and
// attempts.
func (s *Console) uiHook(c api.CapturedEvent) bank.UIHook {
	wh := c.Webhook(api.EventBody(c.Ev, &s.Wire))
	v := bank.UIHook{Seq: c.Ev.Sequence(), Function: wh.Function, ObjectType: wh.ObjectType, ObjectID: wh.ObjectID,
		Status: wh.Status, Code: wh.Code, UpdatedBy: wh.UpdatedBy, Date: wh.Date, LogID: s.LogID(c.Ev.Sequence())}
	var pretty bytes.Buffer
	if json.Indent(&pretty, wh.Body, "", "  ") == nil {
		v.Payload = pretty.String()
	}
	// The headers every attempt of this webhook carries, checked as a
	// receiver checks them.
	v.Signature, v.Signature256 = api.Signatures(wh.ObjectID, s.Cfg.ClientID, s.Cfg.ClientSecret)
	hdr := http.Header{"X-Synapse-Signature": {v.Signature}, "X-Synapse-Signature-Sha256": {v.Signature256}}
	v.SignatureValid = api.VerifySignature(hdr, wh.ObjectID, s.Cfg.ClientID, s.Cfg.ClientSecret)
	for j, d := range wh.Deliveries {
		ud := bank.UIDelivery{Index: j, SubscriptionID: d.SubscriptionID, URL: d.URL}
		for _, a := range d.Attempts {
			ud.Attempts = append(ud.Attempts, api.UIAttemptOf(a, wh.Date))
		}
		v.Deliveries = append(v.Deliveries, ud)
		if len(ud.Attempts) == 0 {
			v.Queued++
			continue
		}
		switch ud.Attempts[len(ud.Attempts)-1].Outcome {
		case bank.UIDelivered:
			v.Delivered++
		case bank.UINotSent:
			v.NotSent++
		default:
			v.Failed++
		}
	}
	return v
}

// htmlLen is the length of s once html/template has escaped it as text.
func htmlLen(s string) int {
	n := len(s)
	for i := range len(s) {
		switch s[i] {
		case '"', '\'', '&', '+':
			n += 4
		case '<', '>':
			n += 3
		case 0:
			n += 2
		}
	}
	return n
}

// uiRedeliverRequest is the body of POST /_fake/ui/webhooks/{seq}/redeliver.
type uiRedeliverRequest struct {
	Delivery int `json:"delivery"`
}

// uiRedeliver serves POST /_fake/ui/webhooks/{seq}/redeliver {"delivery": i}:
// one more attempt of a captured webhook's delivery, now; it answers once
// the attempt was made (within Flush's bound).
func (s *Console) uiRedeliver(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[uiRedeliverRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	seq, perr := strconv.ParseUint(r.PathValue("seq"), 10, 64)
	found, busy := false, false
	if perr == nil {
		found, busy = s.Hooks.Redeliver(seq, req.Delivery)
	}
	switch {
	case !found:
		s.Fail(w, apierr.NotFound("webhook delivery"))
		return
	case busy:
		s.Fail(w, apierr.NotAllowed("delivery_in_flight", "Deliveries to this subscription are queued or in flight; try again when they are done."))
		return
	}
	s.Flush()
	s.ControlOK(w, nil)
}

// uiRequest is a journaled call on the requests page, secrets redacted.
type uiRequest struct {
	Method, Path, Route, ErrorCode string
	Status                         int
	Time                           time.Time
	Latency                        time.Duration
	Summary                        string // Request.String: redacted
	Reason                         string // why the fake refused it
	Body                           string // redacted, indented
	// Answer is the body of the answer, redacted as Body is and
	// indented; "" when the journal kept none (not JSON).
	Answer string
	// AnswerCut: the answer was longer than the journal keeps of it.
	AnswerCut bool
	// NearMisses are the routes nearest to a call no route took.
	NearMisses []string
}

// uiRequestFilter is the requests page's query.
type uiRequestFilter struct {
	Method, Route, Status, Text string
}

func (f uiRequestFilter) matches(r *api.Request) bool {
	return (f.Method == "" || strings.EqualFold(r.Method, f.Method)) &&
		(f.Route == "" || strings.Contains(r.Route, f.Route) || strings.Contains(r.Path, f.Route)) &&
		(f.Status == "" || f.Status == strconv.Itoa(r.Status) || f.Status == strconv.Itoa(r.Status/100)+"xx")
}

// uiRequests serves GET /_fake/ui/requests?method=&route=&status=&q=&limit=:
// the newest journaled calls that match.
func (s *Console) uiRequests(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	q := r.URL.Query()
	f := uiRequestFilter{Method: q.Get("method"), Route: q.Get("route"), Status: strings.ToLower(q.Get("status")), Text: q.Get("q")}
	var picked []api.JournalEntry
	j := &s.Journal
	j.Mu.Lock()
	for i := len(j.Entries) - 1; i >= j.Head && (f.Text != "" || len(picked) <= limit); i-- {
		if e := j.Entries[i]; f.matches(&e.Req) {
			picked = append(picked, e)
		}
	}
	j.Mu.Unlock()
	var list []uiRequest
	total := 0
	for _, e := range picked {
		sum := e.Req.String()
		if f.Text != "" && !strings.Contains(sum, f.Text) {
			continue
		}
		total++
		if len(list) == limit {
			continue
		}
		v := uiRequest{Method: e.Req.Method, Path: e.Req.Path, Route: e.Req.Route, ErrorCode: e.Req.ErrorCode,
			Status: e.Req.Status, Time: e.Req.Time, Latency: e.Latency, Summary: sum, Reason: e.Req.Reason, NearMisses: e.Req.NearMisses}
		if len(e.Req.Body) > 0 && !e.Req.BodyTruncated {
			v.Body = redactIndent(e.Req.Body)
		}
		switch {
		case e.AnswerCut:
			v.AnswerCut = true
		case len(e.Answer) > 0:
			v.Answer = redactIndent(e.Answer)
		}
		list = append(list, v)
	}
	if f.Text == "" && len(picked) > limit {
		total = -1 // more than shown; not counted
	}
	s.uiRender(w, r, "requests", uiPage{Limit: limit, Shown: len(list), Total: total,
		Data: struct {
			Filter uiRequestFilter
			List   []uiRequest
		}{f, list}})
}

// redactIndent is a JSON body with its secrets redacted (RedactBody),
// indented; "" when it is not JSON.
func redactIndent(body []byte) string {
	var pretty bytes.Buffer
	if json.Indent(&pretty, api.RedactBody(body), "", "  ") != nil {
		return ""
	}
	return pretty.String()
}

// uiOAuth serves GET /_fake/ui/oauth: users' fingerprints, oauth keys,
// whether MFA is forced and the pin that was "sent".
func (s *Console) uiOAuth(w http.ResponseWriter, r *http.Request) {
	limit, err := uiLimit(r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	list, total := s.UIOAuthUsers(s.Now(), limit)
	for i := range list {
		slices.SortFunc(list[i].Keys, func(a, b bank.UIKey) int { return b.Expires.Compare(a.Expires) })
	}
	s.uiRender(w, r, "oauth", uiPage{Limit: limit, Shown: len(list), Total: total, Data: list})
}

// uiClockRequest is the body of POST /_fake/ui/clock.
type uiClockRequest struct {
	Step string `json:"step"`
}

// clockStep is how far a dashboard clock button moves the clock from now:
// "1h", "1d", "business-day" (to 00:00 US Eastern time of the next Federal
// Reserve business day) or "statement-date" (to the next 15th, 00:00 UTC,
// when monthly statements are made).
func clockStep(now time.Time, step string) (time.Duration, error) {
	u := now.UTC()
	switch step {
	case "1h":
		return time.Hour, nil
	case "1d":
		return 24 * time.Hour, nil
	case "business-day":
		return reference.NextBusinessDay(u).Sub(u), nil
	case "statement-date":
		next := time.Date(u.Year(), u.Month(), 15, 0, 0, 0, 0, time.UTC)
		if !next.After(u) {
			next = time.Date(u.Year(), u.Month()+1, 15, 0, 0, 0, 0, time.UTC)
		}
		return next.Sub(u), nil
	}
	return 0, apierr.Payload("invalid_step", `step must be "1h", "1d", "business-day" or "statement-date", got %q.`, step)
}

// uiClock serves POST /_fake/ui/clock {"step": ...}: Advance by a
// calendar step, as /clock/advance moves the clock (advanceBy).
func (s *Console) uiClock(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[uiClockRequest](r)
	var d time.Duration
	if err == nil {
		d, err = clockStep(s.Now(), req.Step)
	}
	s.advanceBy(w, d, err)
}

// uiCheckCard serves POST /_fake/ui/subnets/{subnet_id}/check, with the
// body of .../authorize: the IR code the swipe would be declined with now
// ("" when it would be approved), without making it.
func (s *Console) uiCheckCard(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlCardRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	auth := bank.CardAuth(req)
	if err := bank.ValidCardAmount("AmountCents", auth.AmountCents); err != nil {
		s.Fail(w, err)
		return
	}
	code, err := s.CardDeclineCode(r.PathValue("subnet_id"), auth)
	if err != nil {
		s.Fail(w, err)
		return
	}
	meaning, _ := reference.InterchangeMeaning(code)
	s.ControlOK(w, map[string]any{"decline_code": code, "meaning": meaning})
}

// uiVersion changes whenever something the dashboard shows may have:
// webhooks captured or attempted, calls journaled, keys minted, objects
// made, a manual clock moved.
type uiVersion struct {
	hooks, journal, clock int64
	keys, users, txs      int
}

func (s *Console) uiVersion() (v uiVersion, closed bool) {
	h := s.Hooks
	h.Mu.Lock()
	v.hooks, closed = int64(h.Version)<<20^int64(h.Events.Len()), h.Closed
	h.Mu.Unlock()
	j := &s.Journal
	j.Mu.Lock()
	v.journal = int64(len(j.Entries))<<40 ^ int64(j.Head)<<20 ^ j.Bytes
	j.Mu.Unlock()
	if s.ManualClock() {
		v.clock = bank.Ms(s.Now())
	}
	v.keys, v.users, v.txs = s.Counts()
	return v, closed
}

// uiShutdowns maps each http.Server that served an event stream to a
// channel closed when it shuts down, so that open streams end and
// Shutdown does not wait for them.
var uiShutdowns sync.Map

func shutdownSignal(r *http.Request) <-chan struct{} {
	srv, _ := r.Context().Value(http.ServerContextKey).(*http.Server)
	if srv == nil {
		return nil
	}
	ch := make(chan struct{})
	if v, loaded := uiShutdowns.LoadOrStore(srv, ch); loaded {
		return v.(chan struct{})
	}
	srv.RegisterOnShutdown(func() {
		uiShutdowns.Delete(srv)
		close(ch)
	})
	return ch
}

// uiEvents serves GET /_fake/ui/events: server-sent events, one "change"
// event (data: a counter) whenever the store, the capture, the journal or
// a manual clock changed, looked for every uiPoll. The stream ends when the
// client leaves, the Server closes or its http.Server shuts down.
func (s *Console) uiEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	// The state the stream compares with is read before the client sees
	// the stream open, so that no change made after that is missed.
	last, closed := s.uiVersion()
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, "retry: 1000\n\n"); err != nil || rc.Flush() != nil {
		return
	}
	down := shutdownSignal(r)
	tick := time.NewTicker(uiPoll)
	defer tick.Stop()
	for n := 1; !closed; {
		select {
		case <-r.Context().Done():
			return
		case <-down:
			return
		case <-tick.C:
		}
		var v uiVersion
		v, closed = s.uiVersion()
		if v == last {
			continue
		}
		last = v
		if _, err := fmt.Fprintf(w, "event: change\ndata: %d\n\n", n); err != nil || rc.Flush() != nil {
			return
		}
		n++
	}
}
