// Worlds, the console's side: the world file, read and built.

package console

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// World is documented at synapsefake.World.
type World struct {
	Users         map[string]string `json:"users"`
	Nodes         map[string]string `json:"nodes"`
	Subnets       map[string]string `json:"subnets"`
	Subscriptions map[string]string `json:"subscriptions"`
	Transactions  map[string]string `json:"transactions"`
	// OAuthKeys and Fingerprints are by user name, for users whose entry
	// has "oauth": clients send X-SP-USER: "<key>|<fingerprint>".
	OAuthKeys    map[string]string `json:"oauth_keys"`
	Fingerprints map[string]string `json:"fingerprints"`
}

// World file limits: the bytes of a file, the objects it may make once
// its repeats are expanded, and how many years before the clock a date may
// lie (a date such as 0001-01-01 is a typo, and would precede every rule
// and calendar the fake models).
const (
	maxWorldBytes   = 4 << 20
	maxWorldObjects = 20_000
	maxWorldYears   = 10
)

// errWorld is the refusal of a world file: 400 / "200".
func errWorld(format string, args ...any) *apierr.Error {
	return apierr.Payload("invalid_world", format, args...)
}

// worldFile is the top level of a world file; entries are decoded after
// their repeats are expanded.
type worldFile struct {
	Users         []json.RawMessage `json:"users"`
	Transactions  []json.RawMessage `json:"transactions"`
	Subscriptions []json.RawMessage `json:"subscriptions"`
}

type worldUser struct {
	Name string `json:"name"`
	controlUserRequest
	OAuth *controlOAuthRequest `json:"oauth"`
	Nodes []worldNode          `json:"nodes"`
}

type worldNode struct {
	Name       string        `json:"name"`
	Type       string        `json:"type"`
	Nickname   string        `json:"nickname"`
	Balance    worldMoney    `json:"balance"`
	AccountNum string        `json:"account_num"`
	RoutingNum string        `json:"routing_num"`
	SuppID     string        `json:"supp_id"`
	Subnets    []worldSubnet `json:"subnets"`
}

type worldSubnet struct {
	Name         string            `json:"name"`
	Nickname     string            `json:"nickname"`
	AccountClass bank.AccountClass `json:"account_class"`
	Status       bank.SubnetStatus `json:"status"`
}

type worldSubscription struct {
	Name string `json:"name"`
	controlSubscriptionRequest
}

type worldTx struct {
	Name    string      `json:"name"`
	From    string      `json:"from"`
	To      string      `json:"to"`
	Amount  worldMoney  `json:"amount"`
	Note    string      `json:"note"`
	SuppID  string      `json:"supp_id"`
	IP      string      `json:"ip"`
	SameDay bool        `json:"same_day"`
	Date    string      `json:"date"`
	Status  bank.Status `json:"status"`
	Code    string      `json:"code"`
}

// worldMoney is an amount in USD as written: a JSON number or a string.
type worldMoney string

func (m *worldMoney) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*m = worldMoney(s)
		return nil
	}
	if len(b) == 0 || !(b[0] == '-' || b[0] >= '0' && b[0] <= '9') {
		return errors.New(`an amount is a number or a string such as "12.50"`)
	}
	*m = worldMoney(b)
	return nil
}

var moneyPattern = regexp.MustCompile(`^[0-9]{1,16}(\.[0-9]{1,2})?$`)

// cents parses m exactly: dollars with at most two decimals, no sign or
// exponent. The empty amount is zero.
func (m worldMoney) cents() (bank.Cents, bool) {
	if m == "" {
		return 0, true
	}
	if !moneyPattern.MatchString(string(m)) {
		return 0, false
	}
	whole, frac, _ := strings.Cut(string(m), ".")
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "00")[:2], 10, 64)
	return bank.Cents(w*100 + f), true
}

// worldPlan is a parsed and checked world file, ready to apply.
type worldPlan struct {
	users []*userPlan
	txs   []*txPlan // in the order they are made
	subs  []*subPlan
	start time.Time // when the users, nodes and subnets are created
}

type userPlan struct {
	label string
	w     worldUser
	nodes []*nodePlan
	id    string // set by apply
}

type nodePlan struct {
	label   string
	user    *userPlan
	w       worldNode
	seed    bank.NodeSeed
	subnets []*subnetPlan
	id      string // set by apply
}

type subnetPlan struct {
	label string
	w     worldSubnet
}

type subPlan struct {
	label string
	w     worldSubscription
}

type txPlan struct {
	label    string
	name     string
	from, to *nodePlan
	req      bank.CreateTxRequest
	at       time.Time
	status   bank.Status
	code     string
	id       string // set by apply
}

// worldEntry is one entry of a list after expansion: its JSON and the label
// errors name it by.
type worldEntry struct {
	label string
	data  []byte
}

var placeholderPattern = regexp.MustCompile(`\{[A-Za-z_][A-Za-z0-9_]*\}`)

// expandEntries expands the repeats of a list's entries. budget is the
// number of objects still allowed; it is lowered by the entries made.
func expandEntries(kind string, list []json.RawMessage, budget *int) ([]worldEntry, error) {
	var out []worldEntry
	for i, raw := range list {
		label := fmt.Sprintf("%s[%d]", kind, i)
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
			return nil, errWorld("%s: an entry must be a JSON object.", label)
		}
		rep, ok := fields["repeat"]
		if !ok {
			if *budget--; *budget < 0 {
				return nil, errWorld("A world makes at most %d objects.", maxWorldObjects)
			}
			out = append(out, worldEntry{label: label, data: raw})
			continue
		}
		names, counts, err := repeatVars(rep)
		if err != nil {
			return nil, errWorld("%s: %v", label, err)
		}
		delete(fields, "repeat")
		tmpl, _ := json.Marshal(fields)
		for _, p := range placeholderPattern.FindAll(tmpl, -1) {
			if !slices.Contains(names, string(p[1:len(p)-1])) {
				return nil, errWorld("%s: unknown placeholder %s (repeat defines %s).", label, p, strings.Join(names, ", "))
			}
		}
		idx := make([]int, len(names))
		for k := range idx {
			idx[k] = 1
		}
		for {
			if *budget--; *budget < 0 {
				return nil, errWorld("A world makes at most %d objects.", maxWorldObjects)
			}
			data, vars := tmpl, make([]string, len(names))
			for k, n := range names {
				v := strconv.Itoa(idx[k])
				data = bytes.ReplaceAll(data, []byte("{"+n+"}"), []byte(v))
				vars[k] = n + "=" + v
			}
			out = append(out, worldEntry{label: label + " (" + strings.Join(vars, " ") + ")", data: data})
			k := len(idx) - 1
			for k >= 0 && idx[k] == counts[k] {
				idx[k] = 1
				k--
			}
			if k < 0 {
				break
			}
			idx[k]++
		}
	}
	return out, nil
}

// repeatVars reads a repeat object, {"name": count, ...}, in the order written.
func repeatVars(raw json.RawMessage) (names []string, counts []int, err error) {
	bad := errors.New(`repeat must be an object of variables and counts, such as {"u": 50}`)
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		return nil, nil, bad
	}
	for dec.More() {
		tok, _ := dec.Token()
		name, _ := tok.(string)
		var n int
		if err := dec.Decode(&n); err != nil || n < 1 || n > maxWorldObjects ||
			!placeholderPattern.MatchString("{"+name+"}") || slices.Contains(names, name) {
			return nil, nil, bad
		}
		names, counts = append(names, name), append(counts, n)
	}
	if len(names) == 0 {
		return nil, nil, bad
	}
	return names, counts, nil
}

// decodeEntry decodes one entry strictly into v, naming it in the error.
func decodeEntry(e worldEntry, v any) error {
	if err := jsonx.UnmarshalObject(e.data, v, true); err != nil {
		return errWorld("%s: %s", e.label, worldMsg(err))
	}
	return nil
}

// worldMsg is the message of an error, without the wire details.
func worldMsg(err error) string {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// named is the label of an entry with its name.
func named(label, name string) string { return label + " " + strconv.Quote(name) }

// parseWorld decodes and checks a world file, everything that needs no
// store: names and references, amounts, dates, statuses.
func parseWorld(data []byte, now time.Time) (*worldPlan, error) {
	var f worldFile
	if err := jsonx.UnmarshalObject(data, &f, true); err != nil {
		return nil, errWorld("%s", worldMsg(err))
	}
	budget := maxWorldObjects
	users, err := expandEntries("users", f.Users, &budget)
	if err != nil {
		return nil, err
	}
	txs, err := expandEntries("transactions", f.Transactions, &budget)
	if err != nil {
		return nil, err
	}
	subs, err := expandEntries("subscriptions", f.Subscriptions, &budget)
	if err != nil {
		return nil, err
	}
	p := &worldPlan{}
	userNames, nodes, subnetNames := map[string]bool{}, map[string]*nodePlan{}, map[string]bool{}
	for _, e := range users {
		up := &userPlan{}
		if err := decodeEntry(e, &up.w); err != nil {
			return nil, err
		}
		up.label = named(e.label, up.w.Name)
		if err := uniqueName(e.label, "user", up.w.Name, userNames); err != nil {
			return nil, err
		}
		if err := bank.ValidateUserSeed(up.w.controlUserRequest.seed()); err != nil {
			return nil, errWorld("%s: %s", up.label, worldMsg(err))
		}
		if o := up.w.OAuth; o != nil {
			if err := o.Validate(); err != nil {
				return nil, errWorld("%s: oauth: %s", up.label, worldMsg(err))
			}
		}
		for i, wn := range up.w.Nodes {
			np := &nodePlan{label: fmt.Sprintf("%s: nodes[%d]", up.label, i), user: up, w: wn}
			if err := uniqueName(np.label, "node", wn.Name, nil); err != nil {
				return nil, err
			}
			if nodes[wn.Name] != nil {
				return nil, errWorld("%s: the node name %q is taken by %s.", np.label, wn.Name, nodes[wn.Name].label)
			}
			np.label = named(np.label, wn.Name)
			nodes[wn.Name] = np
			bal, ok := wn.Balance.cents()
			if !ok {
				return nil, errWorld("%s: balance %q must be dollars with at most two decimals, such as \"1500.00\".", np.label, wn.Balance)
			}
			req := controlNodeRequest{Type: wn.Type, Nickname: cmp.Or(wn.Nickname, wn.Name), BalanceCents: int64(bal),
				AccountNum: wn.AccountNum, RoutingNum: wn.RoutingNum, SuppID: wn.SuppID}
			if err := req.Validate(); err != nil {
				return nil, errWorld("%s: %s", np.label, worldMsg(err))
			}
			np.seed = bank.NodeSeed(req)
			np.seed.Type = cmp.Or(np.seed.Type, reference.NodeDepositUS)
			for j, ws := range wn.Subnets {
				label := fmt.Sprintf("%s: subnets[%d]", np.label, j)
				if err := uniqueName(label, "subnet", ws.Name, subnetNames); err != nil {
					return nil, err
				}
				np.subnets = append(np.subnets, &subnetPlan{label: named(label, ws.Name), w: ws})
			}
			up.nodes = append(up.nodes, np)
		}
		p.users = append(p.users, up)
	}
	txNames := map[string]bool{}
	for _, e := range txs {
		var w worldTx
		if err := decodeEntry(e, &w); err != nil {
			return nil, err
		}
		tp, err := planTx(e.label, w, nodes, txNames, now)
		if err != nil {
			return nil, err
		}
		p.txs = append(p.txs, tp)
	}
	slices.SortStableFunc(p.txs, func(a, b *txPlan) int { return a.at.Compare(b.at) })
	p.start = now
	if len(p.txs) > 0 {
		p.start = p.txs[0].at // never after now: worldDate refuses the future
	}
	subNames := map[string]bool{}
	for _, e := range subs {
		sp := &subPlan{}
		if err := decodeEntry(e, &sp.w); err != nil {
			return nil, err
		}
		sp.label = named(e.label, sp.w.Name)
		if err := uniqueName(e.label, "subscription", sp.w.Name, subNames); err != nil {
			return nil, err
		}
		if err := sp.w.Validate(); err != nil {
			return nil, errWorld("%s: %s", sp.label, worldMsg(err))
		}
		p.subs = append(p.subs, sp)
	}
	return p, nil
}

// uniqueName refuses an empty name, and one already in seen (when seen is
// not nil), which it then records.
func uniqueName(label, kind, name string, seen map[string]bool) error {
	switch {
	case name == "":
		return errWorld("%s: a %s needs a name.", label, kind)
	case seen == nil:
	case seen[name]:
		return errWorld("%s: duplicate %s name %q.", label, kind, name)
	default:
		seen[name] = true
	}
	return nil
}

// worldStatuses are the statuses a world transaction may be declared in,
// with whether a code goes with it: required (RETURNED), allowed or refused.
var worldStatuses = map[bank.Status]string{
	bank.StatusCreated: "refused", bank.StatusProcessingDebit: "refused", bank.StatusProcessingCredit: "refused",
	bank.StatusSettled: "refused", bank.StatusReturned: "required", bank.StatusCanceled: "allowed",
	bank.StatusQueuedBySynapse: "allowed", bank.StatusQueuedByReceiver: "allowed",
}

// planTx checks a transaction entry and builds its create request.
func planTx(label string, w worldTx, nodes map[string]*nodePlan, names map[string]bool, now time.Time) (*txPlan, error) {
	if w.Name != "" {
		label = named(label, w.Name)
		if names[w.Name] {
			return nil, errWorld("%s: duplicate transaction name %q.", label, w.Name)
		}
		names[w.Name] = true
	}
	tp := &txPlan{label: label, name: w.Name, status: cmp.Or(w.Status, bank.StatusCreated), code: w.Code}
	for _, end := range []struct {
		field, name string
		node        **nodePlan
	}{{"from", w.From, &tp.from}, {"to", w.To, &tp.to}} {
		if *end.node = nodes[end.name]; *end.node == nil {
			return nil, errWorld("%s: %s names no node of the world: %q.", label, end.field, end.name)
		}
	}
	amount, ok := w.Amount.cents()
	if !ok || amount == 0 {
		return nil, errWorld("%s: amount %q must be dollars from 0.01 with at most two decimals, such as 12.50.", label, w.Amount)
	}
	switch worldStatuses[tp.status] {
	case "":
		return nil, errWorld("%s: unknown status %q.", label, tp.status)
	case "refused":
		if tp.code != "" {
			return nil, errWorld("%s: a code goes only with RETURNED, QUEUED-BY-SYNAPSE, QUEUED-BY-RECEIVER or CANCELED.", label)
		}
	case "required":
		if err := bank.ValidEntryReturnCode(tp.code); err != nil {
			return nil, errWorld("%s: %s", label, worldMsg(err))
		}
	}
	at, err := worldDate(w.Date, now)
	if err != nil {
		return nil, errWorld("%s: %v", label, err)
	}
	tp.at = at
	typ, id, usd, usdName, ip := tp.to.seed.Type, tp.to.w.Name, float64(amount)/100, "USD", cmp.Or(w.IP, "127.0.0.1")
	tp.req.To = &bank.TxToRequest{Type: &typ, ID: &id}
	tp.req.Amount = &bank.TxAmountRequest{Amount: &usd, Currency: &usdName}
	tp.req.Extra = &bank.TxExtraRequest{IP: &ip, Note: w.Note, SuppID: w.SuppID, SameDay: w.SameDay}
	if err := tp.req.Validate(); err != nil {
		return nil, errWorld("%s: %s", label, worldMsg(err))
	}
	return tp, nil
}

var relativeDatePattern = regexp.MustCompile(`^-([0-9]+[wdhms])+$`)

// worldDate reads a date: "" or "now", a past offset such as "-3d",
// "-1d12h", "-90m" or "-2w", a day ("2026-11-01", midnight UTC) or an RFC
// 3339 time. It must not be after now, nor more than maxWorldYears before.
func worldDate(s string, now time.Time) (time.Time, error) {
	var at time.Time
	floor := now.AddDate(-maxWorldYears, 0, 0)
	tooFar := func() error {
		return fmt.Errorf("date %q is more than %d years before now (%s): a world's dates lie within the %d years before the clock",
			s, maxWorldYears, now.UTC().Format(time.RFC3339), maxWorldYears)
	}
	maxBack := now.Sub(floor)
	switch {
	case s == "" || s == "now":
		return now, nil
	case relativeDatePattern.MatchString(s):
		var back time.Duration
		units := map[byte]time.Duration{'w': 7 * 24 * time.Hour, 'd': 24 * time.Hour, 'h': time.Hour, 'm': time.Minute, 's': time.Second}
		for rest := s[1:]; rest != ""; {
			i := strings.IndexAny(rest, "wdhms")
			n, err := strconv.Atoi(rest[:i])
			if err != nil || time.Duration(n) > maxBack/units[rest[i]] {
				return time.Time{}, tooFar()
			}
			if back += time.Duration(n) * units[rest[i]]; back > maxBack {
				return time.Time{}, tooFar()
			}
			rest = rest[i+1:]
		}
		at = now.Add(-back)
	default:
		var err error
		if at, err = time.Parse(time.RFC3339, s); err != nil {
			if at, err = time.Parse(time.DateOnly, s); err != nil {
				return time.Time{}, fmt.Errorf(`date %q must be "now", a past offset such as "-3d" or "-1d12h", a day such as "2026-11-01" or an RFC 3339 time`, s)
			}
		}
	}
	at = at.Truncate(time.Millisecond)
	if at.After(now) {
		return time.Time{}, fmt.Errorf("date %q is in the future (now is %s)", s, now.UTC().Format(time.RFC3339))
	}
	if at.Before(floor) {
		return time.Time{}, tooFar()
	}
	return at, nil
}

// apply makes the world's objects in s. now is the time the dates were
// read at.
func (p *worldPlan) apply(s *Console, now time.Time) (World, error) {
	w := World{Users: map[string]string{}, Nodes: map[string]string{}, Subnets: map[string]string{},
		Subscriptions: map[string]string{}, Transactions: map[string]string{},
		OAuthKeys: map[string]string{}, Fingerprints: map[string]string{}}
	for _, up := range p.users {
		u, err := s.AddUserAt(p.start, up.w.controlUserRequest.seed())
		if err != nil {
			return World{}, errWorld("%s: %s", up.label, w.names(err))
		}
		up.id = u.ID
		w.Users[up.w.Name] = u.ID
		if o := up.w.OAuth; o != nil {
			w.OAuthKeys[up.w.Name] = s.OAuthKey(u.ID, o.Fingerprint, o.Scopes...)
			w.Fingerprints[up.w.Name] = o.Fingerprint
		}
		for _, np := range up.nodes {
			n, err := s.AddNodeAt(p.start, u.ID, np.seed)
			if err != nil {
				return World{}, errWorld("%s: %s", np.label, w.names(err))
			}
			np.id = n.ID
			w.Nodes[np.w.Name] = n.ID
			for _, sp := range np.subnets {
				sn, err := s.AddSubnetAt(p.start, u.ID, n.ID, bank.SubnetSeed{Nickname: cmp.Or(sp.w.Nickname, sp.w.Name),
					AccountClass: sp.w.AccountClass, Status: sp.w.Status})
				if err != nil {
					return World{}, errWorld("%s: %s", sp.label, w.names(err))
				}
				w.Subnets[sp.w.Name] = sn.ID
			}
		}
	}
	for _, tp := range p.txs {
		id, err := s.WorldTx(tp.at, tp.from.user.id, tp.from.id, tp.to.id, tp.req, tp.status, tp.code)
		tp.id = id
		if err != nil {
			return World{}, errWorld("%s: %s", tp.label, w.names(err))
		}
		if tp.name != "" {
			w.Transactions[tp.name] = tp.id
		}
	}
	for _, sp := range p.subs {
		sub, err := s.AddSubscription(sp.w.URL, sp.w.Scopes...)
		if err != nil {
			return World{}, errWorld("%s: %s", sp.label, w.names(err))
		}
		w.Subscriptions[sp.w.Name] = sub.ID
	}
	return w, nil
}

// names is the message of err with the ids of w's objects replaced by
// their quoted names: the ids of a failed load mean nothing to its author.
func (w World) names(err error) string {
	var pairs []string
	for _, m := range []map[string]string{w.Users, w.Nodes, w.Subnets, w.Transactions} {
		for name, id := range m {
			pairs = append(pairs, id, strconv.Quote(name))
		}
	}
	return strings.NewReplacer(pairs...).Replace(worldMsg(err))
}

// controlLoadWorld serves POST /_fake/world: the body is a world file; the
// answer is the ids by name.
func (s *Console) controlLoadWorld(w http.ResponseWriter, r *http.Request) {
	world, err := s.LoadWorld(r.Body)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"world": world})
}

// LoadWorld is documented at synapsefake.Server.LoadWorld.
func (s *Console) LoadWorld(r io.Reader) (World, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxWorldBytes+1))
	switch {
	case err != nil:
		return World{}, errWorld("Unable to read the world file: %v.", err)
	case len(data) > maxWorldBytes:
		return World{}, errWorld("A world file is at most %d bytes.", maxWorldBytes)
	}
	s.RunDueFast()
	now := s.Now()
	plan, err := parseWorld(data, now)
	if err != nil {
		return World{}, err
	}
	scratch, closeScratch := s.Host.Scratch(now)
	defer closeScratch()
	if _, err := plan.apply(scratch, now); err != nil {
		return World{}, err
	}
	scratch.RunTxSteps(now) // the processing steps only: statements and webhooks do not change a status
	for _, tp := range plan.txs {
		if t, _ := scratch.Transaction(tp.id); t.Status != tp.status {
			return World{}, errWorld("%s: declared %s, but by now the clock has moved it to %s; date it later or declare the status it reaches.", tp.label, tp.status, t.Status)
		}
	}
	return plan.apply(s, now)
}
