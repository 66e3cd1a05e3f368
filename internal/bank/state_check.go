package bank

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/synapsefake/synapsefake/reference"
)

// A document loaded from outside is checked whole before it replaces
// anything: every reference between records resolves, every order list
// matches its map, every record is keyed by its own id, every amount,
// card number, status and date is one the fake itself could have made, and
// the records agree on what moved (money).
// The code that reads the store relies on these, so a document that breaks
// one could make a page or a list fail; it is refused instead, naming the
// first bad path.

// Dates in a restored document: the zero time means "not set"; any other
// must fall in [MinStateTime, MaxStateTime].
var (
	MinStateTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxStateTime = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// stateChecker collects the first fault of a decoded store, with its path
// in the document.
type stateChecker struct {
	st  *Store
	err error
	// lists are the checks of id lists, run once every record's own
	// fields passed, so that a dangling reference is named where it is
	// and not where a list points back at it.
	lists []func()
}

func (c *stateChecker) later(f func()) { c.lists = append(c.lists, f) }

func (c *stateChecker) failf(path, format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
}

func key(path, k string) string { return path + "[" + strconv.Quote(k) + "]" }

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func (c *stateChecker) time(path string, t time.Time) {
	if !t.IsZero() && (t.Before(MinStateTime) || t.After(MaxStateTime)) {
		c.failf(path, "date %s is outside %d-%d", t.Format(time.RFC3339), MinStateTime.Year(), MaxStateTime.Year())
	}
}

// required is time for a date every record of its kind has.
func (c *stateChecker) required(path string, t time.Time) {
	if t.IsZero() {
		c.failf(path, "date %s is outside %d-%d", t.Format(time.RFC3339), MinStateTime.Year(), MaxStateTime.Year())
	}
	c.time(path, t)
}

func (c *stateChecker) ms(path string, v int64) {
	c.time(path, time.UnixMilli(v))
}

// ledgerSumLimit bounds a ledger's running sum: far past any sum the fake
// can reach, and far enough from int64's ends that adding an amount (at
// most MaxBalanceCents) or taking the sum from a balance cannot overflow.
const ledgerSumLimit = Cents(1) << 62

func (c *stateChecker) amount(path string, v Cents) {
	if v < -MaxBalanceCents || v > MaxBalanceCents {
		c.failf(path, "amount %d is outside ±%d cents", int64(v), int64(MaxBalanceCents))
	}
}

func (c *stateChecker) notNil(path string, isNil bool) {
	if isNil {
		c.failf(path, "must be an object, not null")
	}
}

// ids checks a list of ids: each names a record that exists and passes
// belongs, and none appears twice.
func (c *stateChecker) ids(path string, list []string, what string, exists func(string) bool) {
	seen := make(map[string]bool, len(list))
	for i, id := range list {
		switch {
		case seen[id]:
			c.failf(index(path, i), "%s %q appears twice", what, id)
		case !exists(id):
			c.failf(index(path, i), "%s %q does not exist or is not this object's", what, id)
		}
		seen[id] = true
	}
}

// order checks an order list against its map: every id once, each in the
// map, and (when all) every entry of the map in the list.
func (c *stateChecker) order(path string, list []string, n int, exists func(string) bool, all bool) {
	c.ids(path, list, "id", exists)
	if all && c.err == nil && len(list) != n {
		c.failf(path, "lists %d ids; the map holds %d", len(list), n)
	}
}

// each checks every record of m, in the order of their keys: a null
// record is a fault, and stops the walk; check reads the others.
func each[V any](c *stateChecker, path string, m map[string]*V, what string, check func(p, k string, v *V)) {
	for _, k := range sortedKeys(m) {
		p := key(path, k)
		if m[k] == nil {
			c.null(p, what)
			return
		}
		check(p, k, m[k])
	}
}

// null reports a record that is null.
func (c *stateChecker) null(path, what string) {
	c.failf(path, "must be a %s, not null", what)
}

// keyedBy checks that a record is keyed by its own id.
func (c *stateChecker) keyedBy(path, what, id, k string) {
	if id != k {
		c.failf(path, "is %q; a %s is keyed by its own id", id, what)
	}
}

// user checks that a record's user exists.
func (c *stateChecker) user(path, id string) {
	if c.st.users[id] == nil {
		c.failf(path, "user %q does not exist", id)
	}
}

// CheckStore checks a decoded store. It returns the first fault found.
func CheckStore(st *Store) error {
	c := &stateChecker{st: st}
	c.maps()
	if c.err != nil {
		return c.err
	}
	c.users()
	c.nodes()
	c.transactions()
	c.subnets()
	c.others()
	c.statements()
	for _, f := range c.lists {
		f()
	}
	if c.err == nil {
		c.money()
	}
	return c.err
}

// maps: the store's maps the code writes to must exist.
func (c *stateChecker) maps() {
	st := c.st
	for _, m := range []struct {
		name string
		nil  bool
	}{{"users", st.users == nil}, {"nodes", st.nodes == nil}, {"keys", st.keys == nil}, {"txs", st.txs == nil},
		{"subnets", st.subnets == nil}, {"subs", st.subs == nil}, {"idem", st.idem == nil}} {
		c.notNil("store."+m.name, m.nil)
	}
}

func (c *stateChecker) users() {
	st := c.st
	each(c, "store.users", st.users, "user", func(p, k string, u *userRecord) {
		c.keyedBy(p+".id", "user", u.id, k)
		c.required(p+".created", u.created)
		c.time(p+".updated", u.updated)
		c.notNil(p+".fingerprints", u.fingerprints == nil)
		if !slices.Contains(userPermissions, u.permission) {
			c.failf(p+".permission", "unknown permission %q", u.permission)
		}
		for i, d := range u.documents {
			if d == nil {
				c.failf(index(p+".documents", i), "must be a document, not null")
				continue
			}
			for k, kind := range docKinds {
				for j, sd := range d.docs.lists[k] {
					if sd == nil {
						c.failf(index(key(index(p+".documents", i)+".docs", kind), j), "must be a document, not null")
					}
				}
			}
		}
		c.later(func() {
			c.ids(p+".nodeIDs", u.nodeIDs, "node", func(id string) bool { n := st.nodes[id]; return n != nil && n.userID == k })
		})
		c.later(func() { c.ids(p+".txIDs", u.txIDs, "transaction", func(id string) bool { return st.txs[id] != nil }) })
		c.later(func() {
			c.ids(p+".subnetIDs", u.subnetIDs, "subnet", func(id string) bool { sn := st.subnets[id]; return sn != nil && sn.userID == k })
		})
	})
	if st.networkUser != nil && slices.Contains(st.userOrder, st.networkUser.id) {
		c.failf("store.userOrder", "lists the hidden network user %q", st.networkUser.id)
	}
	listed := len(st.users)
	if st.networkUser != nil {
		listed--
	}
	c.later(func() {
		c.order("store.userOrder", st.userOrder, listed, func(id string) bool { return st.users[id] != nil }, true)
	})
}

func (c *stateChecker) nodes() {
	st := c.st
	each(c, "store.nodes", st.nodes, "node", func(p, k string, n *nodeRecord) {
		c.keyedBy(p+".id", "node", n.id, k)
		c.user(p+".userID", n.userID)
		if _, ok := reference.LookupNodeType(n.typ); !ok {
			c.failf(p+".typ", "unknown node type %q", n.typ)
		}
		c.amount(p+".balance", n.balance)
		c.amount(p+".pending", n.pending)
		c.amount(p+".inflight", n.inflight)
		if a := n.available(); a < -MaxBalanceCents || a > MaxBalanceCents {
			c.failf(p+".pending", "leaves an available balance outside ±%d cents", int64(MaxBalanceCents))
		}
		c.required(p+".created", n.created)
		for i, e := range n.timeline {
			c.ms(index(p+".timeline", i)+".Date", e.Date)
		}
		c.later(func() {
			c.ids(p+".txIDs", n.txIDs, "transaction", func(id string) bool {
				t := st.txs[id]
				return t != nil && (t.fromNode == k || t.toNode == k)
			})
		})
		c.later(func() {
			c.ids(p+".subnetIDs", n.subnetIDs, "subnet", func(id string) bool { sn := st.subnets[id]; return sn != nil && sn.nodeID == k })
		})
	})
	c.later(func() {
		c.order("store.nodeOrder", st.nodeOrder, len(st.nodes), func(id string) bool { return st.nodes[id] != nil }, false)
	})
	for _, typ := range sortedKeys(st.network) {
		id := st.network[typ]
		if n := st.nodes[id]; n == nil || st.networkUser == nil || n.userID != st.networkUser.id {
			c.failf(key("store.network", typ), "node %q does not exist or is not the network user's", id)
		}
	}
}

func (c *stateChecker) transactions() {
	st := c.st
	each(c, "store.txs", st.txs, "transaction", func(p, k string, t *txRecord) {
		c.keyedBy(p+".id", "transaction", t.id, k)
		c.user(p+".userID", t.userID)
		for _, f := range []struct{ name, id string }{{"fromNode", t.fromNode}, {"toNode", t.toNode}} {
			if st.nodes[f.id] == nil {
				c.failf(p+"."+f.name, "node %q does not exist", f.id)
			}
		}
		if from, to := st.nodes[t.fromNode], st.nodes[t.toNode]; from != nil && to != nil && from.userID != t.userID {
			// Money from the outside world (a dummy deposit) and a
			// dispute's credit are the receiver's transactions.
			fromNetwork := st.networkUser != nil && from.userID == st.networkUser.id
			if !(fromNetwork || t.disputeOf != "") || to.userID != t.userID {
				c.failf(p+".userID", "is %q, but the sending node %q is user %q's", t.userID, t.fromNode, from.userID)
			}
		}
		if t.amount < 0 || t.amount > MaxBalanceCents {
			c.failf(p+".amount", "amount %d is outside 0..%d cents", int64(t.amount), int64(MaxBalanceCents))
		}
		var fees Cents
		for i, f := range t.fees {
			fp := index(p+".fees", i)
			if f.fee < 0 || f.fee > MaxBalanceCents {
				c.failf(fp+".fee", "amount %d is outside 0..%d cents", int64(f.fee), int64(MaxBalanceCents))
			}
			fees += f.fee
			if f.toNode != "" && st.nodes[f.toNode] == nil {
				c.failf(fp+".toNode", "node %q does not exist", f.toNode)
			}
		}
		if fees > t.amount {
			c.failf(p+".fees", "total %d cents more than the amount %d", int64(fees), int64(t.amount))
		}
		if _, ok := statusIDs[t.status]; !ok {
			c.failf(p+".status", "unknown status %q", t.status)
		}
		if len(t.timeline) == 0 {
			c.failf(p+".timeline", "is empty; every transaction has at least its CREATED entry")
		}
		for i, e := range t.timeline {
			if _, ok := statusIDs[e.Status]; !ok {
				c.failf(index(p+".timeline", i)+".Status", "unknown status %q", e.Status)
			}
			c.ms(index(p+".timeline", i)+".Date", e.Date)
		}
		for _, f := range []struct {
			name string
			t    time.Time
		}{{"processOn", t.processOn}, {"start", t.start}} {
			c.time(p+"."+f.name, f.t)
		}
		c.required(p+".created", t.created)
		if t.comments < 0 || t.comments > MaxComments {
			c.failf(p+".comments", "is outside 0..%d", MaxComments)
		}
		if t.disputeOf != "" && st.txs[t.disputeOf] == nil {
			c.failf(p+".disputeOf", "transaction %q does not exist", t.disputeOf)
		}
		if d := t.dispute; d != nil {
			c.time(p+".dispute.filed", d.filed)
			if d.creditID != "" && st.txs[d.creditID] == nil {
				c.failf(p+".dispute.creditID", "transaction %q does not exist", d.creditID)
			}
		}
		if d := t.dishonor; d != nil {
			c.dishonor(p+".dishonor", t, d)
		}
		if l := t.card; l != nil {
			c.time(p+".card.expires", l.expires)
			c.amount(p+".card.original", l.original)
			c.amount(p+".card.authorized", l.authorized)
			for i, ch := range l.changes {
				cp := index(p+".card.changes", i)
				c.amount(cp+".Amount", ch.Amount)
				c.amount(cp+".Authorized", ch.Authorized)
				if ch.Entries < 0 {
					c.failf(cp+".Entries", "is negative")
				}
			}
		}
	})
	c.later(func() {
		c.order("store.txOrder", st.txOrder, len(st.txs), func(id string) bool { return st.txs[id] != nil }, true)
	})
}

// money checks that the records agree on what moved: each node's pending
// and in-flight amounts are those of its transactions, and each
// transaction's movements in the ledgers are what its status moved (a
// later return refunds its amount, and a statement shows its ledger). It
// runs once every reference resolves.
func (c *stateChecker) money() {
	st := c.st
	pending, inflight := map[string]Cents{}, map[string]Cents{}
	moved := map[string]map[string]Cents{} // transaction, node: the sum of its movements
	overflow := false
	add := func(m map[string]Cents, k string, v Cents) {
		var ok bool
		if m[k], ok = m[k].plus(v); !ok {
			overflow = true
		}
	}
	for _, t := range st.txs {
		switch {
		case pendingDebit(t.status):
			add(pending, t.fromNode, t.amount)
		case t.status == StatusProcessingDebit || t.status == StatusProcessingCredit:
			add(inflight, t.fromNode, t.amount)
		}
	}
	for _, nodeID := range sortedKeys(st.book.ledger) {
		for e := range st.book.ledger[nodeID].entries(0, st.book.ledger[nodeID].len()) {
			if e.txID == "" {
				continue
			}
			if moved[e.txID] == nil {
				moved[e.txID] = map[string]Cents{}
			}
			add(moved[e.txID], nodeID, e.amount)
		}
	}
	if overflow {
		c.failf("store", "the amounts of the transactions or movements of a node overflow")
		return
	}
	each(c, "store.nodes", st.nodes, "node", func(p, k string, n *nodeRecord) {
		if n.pending != pending[k] {
			c.failf(p+".pending", "is %d cents; the node's CREATED and queued debits hold %d", int64(n.pending), int64(pending[k]))
		}
		if n.inflight != inflight[k] {
			c.failf(p+".inflight", "is %d cents; the node's debits in PROCESSING-DEBIT or PROCESSING-CREDIT hold %d", int64(n.inflight), int64(inflight[k]))
		}
	})
	each(c, "store.txs", st.txs, "transaction", func(p, k string, t *txRecord) {
		if t.credited != (t.status == StatusSettled) {
			c.failf(p+".credited", "is %v for a %s transaction; only a SETTLED one has credited its receiver", t.credited, t.status)
		}
		want := map[string]Cents{}
		deposit := func(id string, v Cents) {
			if n := st.nodes[id]; reference.IsDepositType(n.typ) && v != 0 {
				want[id] += v
			}
		}
		switch t.status {
		case StatusProcessingDebit, StatusProcessingCredit:
			deposit(t.fromNode, -t.amount)
		case StatusSettled:
			deposit(t.fromNode, -t.amount)
			deposit(t.toNode, t.amount-t.feeTotal())
			for _, f := range t.fees {
				if f.toNode != "" {
					deposit(f.toNode, f.fee)
				}
			}
		}
		for _, nodeID := range sortedKeys(moved[k]) {
			if got := moved[k][nodeID]; got != want[nodeID] {
				c.failf(p+".amount", "a %s transaction of %d cents moves %d on node %q; its ledger shows %d",
					t.status, int64(t.amount), int64(want[nodeID]), nodeID, int64(got))
			}
		}
		for _, nodeID := range sortedKeys(want) {
			if _, ok := moved[k][nodeID]; !ok {
				c.failf(p+".amount", "a %s transaction of %d cents moves %d on node %q; its ledger shows none",
					t.status, int64(t.amount), int64(want[nodeID]), nodeID)
			}
		}
	})
}

// dishonor checks the dishonor of t's return: codes of their families,
// its dates, a contest with both its code and its date or neither, and a
// status that fits (SETTLED until contested, RETURNED after).
func (c *stateChecker) dishonor(p string, t *txRecord, d *dishonorRecord) {
	if d.returnCode != "" && ValidEntryReturnCode(d.returnCode) != nil {
		c.failf(p+".returnCode", "%q is not the code of a return", d.returnCode)
	}
	if validCodeOf(d.code, reference.OfReturn) != nil {
		c.failf(p+".code", "%q is not a dishonored return code", d.code)
	}
	c.required(p+".at", d.at)
	want := StatusSettled
	switch {
	case d.contest == "":
		if !d.contested.IsZero() {
			c.failf(p+".contested", "is set without a contest code")
		}
	case validCodeOf(d.contest, reference.OfDishonor) != nil:
		c.failf(p+".contest", "%q is not a contested dishonored return code", d.contest)
	default:
		c.required(p+".contested", d.contested)
		want = StatusReturned
	}
	if t.status != want {
		c.failf(p, "a transaction whose return was dishonored is %s, not %s", want, t.status)
	}
}

func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func (c *stateChecker) subnets() {
	st := c.st
	each(c, "store.subnets", st.subnets, "subnet", func(p, k string, sn *subnetRecord) {
		c.keyedBy(p+".id", "subnet", sn.id, k)
		c.user(p+".userID", sn.userID)
		if n := st.nodes[sn.nodeID]; n == nil || n.userID != sn.userID {
			c.failf(p+".nodeID", "node %q does not exist or is not the subnet's user's", sn.nodeID)
		}
		if !slices.Contains([]SubnetStatus{SubnetActive, SubnetInactive, SubnetTerminated}, sn.status) {
			c.failf(p+".status", "unknown status %q", sn.status)
		}
		switch sn.class {
		case ClassCard:
			if !digits(sn.cardNumber, 16) {
				c.failf(p+".cardNumber", "a card number is 16 digits")
			}
			if !digits(sn.cvc, 3) {
				c.failf(p+".cvc", "a cvc is 3 digits")
			}
		case ClassChecking, ClassSavings:
			if !digits(sn.accountNum, 10) {
				c.failf(p+".accountNum", "an account number is 10 digits")
			}
		default:
			c.failf(p+".class", "unknown class %q", sn.class)
		}
		c.amount(p+".prefs.dailyCash", sn.prefs.dailyCash)
		c.amount(p+".prefs.dailyTransaction", sn.prefs.dailyTransaction)
		c.required(p+".created", sn.created)
		c.time(p+".updated", sn.updated)
		c.time(p+".exp", sn.exp)
		c.later(func() { c.ids(p+".txIDs", sn.txIDs, "transaction", func(id string) bool { return st.txs[id] != nil }) })
		for i, sh := range sn.ships {
			if sh == nil {
				c.failf(index(p+".ships", i), "must be a shipment, not null")
				continue
			}
			c.time(index(p+".ships", i)+".created", sh.created)
		}
	})
}

// others: keys, steps, return plans, idempotency keys, subscriptions and
// bank logins.
func (c *stateChecker) others() {
	st := c.st
	each(c, "store.keys", st.keys, "key", func(p, k string, kr *keyRecord) {
		c.keyedBy(p+".key", "key", kr.key, k)
		c.user(p+".userID", kr.userID)
		c.required(p+".expires", kr.expires)
	})
	for i, s := range st.steps {
		p := index("store.steps", i)
		if st.txs[s.txID] == nil {
			c.failf(p+".txID", "transaction %q does not exist", s.txID)
		}
		if _, ok := statusIDs[s.to]; !ok {
			c.failf(p+".to", "unknown status %q", s.to)
		}
		c.time(p+".at", s.at)
	}
	if c.err == nil && !st.steps.heapOrdered() {
		c.failf("store.steps", "are not in due order")
	}
	for _, id := range sortedKeys(st.returnPlans) {
		if st.txs[id] == nil {
			c.failf(key("store.returnPlans", id), "transaction %q does not exist", id)
		}
	}
	for _, k := range sortedKeys(st.idem) {
		at := st.idem[k]
		c.time(key("store.idem", k), at)
	}
	for _, q := range []struct {
		name string
		q    expiryQueue
	}{{"idemExpiry", st.idemExpiry}, {"keyExpiry", st.keyExpiry}, {"bankLoginExpiry", st.bankLoginExpiry}} {
		if q.q.head < 0 || q.q.head > len(q.q.items) {
			c.failf("store."+q.name+".head", "is outside 0..%d", len(q.q.items))
		}
		for i, e := range q.q.items {
			c.time(index("store."+q.name+".items", i)+".at", e.at)
		}
	}
	each(c, "store.subs", st.subs, "subscription", func(p, k string, sub *subscriptionRecord) {
		if sub.target == nil {
			c.failf(p+".target", "must be the subscription's url, not null")
		}
		c.keyedBy(p+".id", "subscription", sub.id, k)
		c.required(p+".created", sub.created)
	})
	c.later(func() {
		c.order("store.subOrder", st.subOrder, len(st.subs), func(id string) bool { return st.subs[id] != nil }, true)
	})
	each(c, "store.bankLogins", st.bankLogins, "bank login", func(p, _ string, l *bankLoginRecord) {
		c.user(p+".userID", l.userID)
		c.time(p+".expires", l.expires)
	})
}

func (c *stateChecker) statements() {
	st := c.st
	b := &st.book
	c.time("store.book.checked", b.checked)
	if (b.byID == nil) != (b.byNode == nil) || (b.byID == nil) != (b.byUser == nil) {
		c.failf("store.book", "byID, byNode and byUser are all null or all objects")
	}
	for _, nodeID := range sortedKeys(b.ledger) {
		entries := b.ledger[nodeID]
		count := entries.len()
		p := key("store.book.ledger", nodeID)
		n := st.nodes[nodeID]
		switch {
		case n == nil:
			c.failf(p, "node %q does not exist", nodeID)
			continue
		case !reference.IsDepositType(n.typ) && count > 0:
			c.failf(p, "node %q is of type %s, which keeps no ledger", nodeID, n.typ)
		}
		var sum Cents
		for i := range count {
			e := entries.at(i)
			ep := index(p, i)
			c.time(ep+".date", e.date)
			c.amount(ep+".amount", e.amount)
			if e.txID != "" && st.txs[e.txID] == nil {
				c.failf(ep+".txID", "transaction %q does not exist", e.txID)
			}
			if e.seq < 0 || e.seq >= count {
				c.failf(ep+".seq", "is outside 0..%d", count-1)
			}
			// The entries' sum may pass ±MaxBalanceCents (a node seeded at
			// -MaxBalanceCents and funded by as much, then more): only the
			// balances it leads to are bounded, by the check below.
			if sum += e.amount; sum < -ledgerSumLimit || sum > ledgerSumLimit {
				c.failf(ep+".amount", "the ledger's sum overflows")
			}
		}
		// What the ledger does not explain is the node's starting
		// balance, which statements show: it must be an amount too.
		if c.err == nil {
			c.amount(p, n.balance-sum)
		}
	}
	each(c, "store.book.byID", b.byID, "statement", func(p, id string, rec *statementRecord) {
		c.keyedBy(p+".id", "statement", rec.id, id)
		if n := st.nodes[rec.nodeID]; n == nil || n.userID != rec.userID {
			c.failf(p+".nodeID", "node %q does not exist or is not the statement's user's", rec.nodeID)
		}
		for _, f := range []struct {
			name string
			t    time.Time
		}{{"start", rec.start}, {"end", rec.end}, {"created", rec.created}, {"generated", rec.generated}} {
			c.time(p+"."+f.name, f.t)
		}
		c.amount(p+".opening", rec.opening)
		c.amount(p+".ending", rec.ending)
		c.amount(p+".initial", rec.initial)
		if count := b.ledger[rec.nodeID].len(); rec.recorded < 0 || rec.recorded > count {
			c.failf(p+".recorded", "is outside 0..%d, the node's ledger", count)
		}
	})
	exists := func(id string) bool { return b.byID[id] != nil }
	for _, nodeID := range sortedKeys(b.byNode) {
		list := b.byNode[nodeID]
		c.later(func() {
			c.ids(key("store.book.byNode", nodeID), list, "statement", func(id string) bool { return exists(id) && b.byID[id].nodeID == nodeID })
		})
	}
	for _, userID := range sortedKeys(b.byUser) {
		list := b.byUser[userID]
		c.later(func() {
			c.ids(key("store.book.byUser", userID), list, "statement", func(id string) bool { return exists(id) && b.byID[id].userID == userID })
		})
	}
	c.later(func() { c.ids("store.book.pending", b.pending, "statement", exists) })
}

// checkView reports whether a saved view is a JSON object.
func checkView(view string) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal([]byte(view), &v) == nil && v != nil
}

// heapOrdered reports whether q is a heap: no step is due before its
// parent.
func (q stepQueue) heapOrdered() bool {
	for i := 1; i < len(q); i++ {
		if q.Less(i, (i-1)/2) {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
