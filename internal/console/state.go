// Saved state, the console's side: the whole document, the state routes, restore.

package console

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/internal/jsonx"
	"github.com/synapsefake/synapsefake/reference"
)

// StateVersion is documented at synapsefake.StateVersion.
const StateVersion = 5

// stateFormat is the document's "format": it tells a state file from any
// other JSON.
const stateFormat = "synapsefake-state"

// DefaultMaxStateSize is documented at synapsefake.DefaultMaxStateSize.
const DefaultMaxStateSize = 64 << 20

func (s *Console) maxStateSize() int64 {
	if s.Cfg.MaxState > 0 {
		return s.Cfg.MaxState
	}
	return DefaultMaxStateSize
}

// errRestoreBusy refuses a restore while another one runs: each takes
// several times its document's size in memory.
var errRestoreBusy = apierr.New(reference.ErrTooManyRequests, "restore_in_progress",
	"Another state document is being restored; send this one when it is done.")

// readState reads a document of at most maxStateSize bytes.
func (s *Console) readState(r io.Reader) ([]byte, error) {
	limit := s.maxStateSize()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, bank.ErrState("cannot read it: %v", err)
	}
	if int64(len(data)) > limit {
		return nil, errStateTooLarge(limit)
	}
	return data, nil
}

func errStateTooLarge(limit int64) *apierr.Error {
	return apierr.Payload("body_too_large", "State document refused: it is larger than %d bytes (WithMaxStateSize, -max-state-size).", limit)
}

// stateKeys are the document's top-level keys, every one required.
var stateKeys = []string{"format", "version", "seed", "client_id", "clock", "ids", "store", "network_user",
	"webhooks", "journal", "faults"}

func (s *Console) snapshot() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"format":"` + stateFormat + `","version":` + strconv.Itoa(StateVersion))
	field := func(key string, v any) error {
		b, err := json.Marshal(v)
		buf.WriteString(`,"` + key + `":`)
		buf.Write(b)
		return err
	}
	_ = field("seed", s.Cfg.Seed)
	_ = field("client_id", s.Cfg.ClientID)

	// Under the lock, the state is copied; it is encoded after the lock is
	// released, so that a large state does not stop the API while it is
	// written out.
	var hooks api.StateHooks
	now, ids, saved, nu := s.SnapshotBank(func() { hooks = s.Hooks.Snapshot() })
	if snapshotCopied != nil {
		snapshotCopied(s)
	}
	err := func() error {
		if err := field("clock", now.Format(time.RFC3339Nano)); err != nil {
			return err
		}
		if err := field("ids", ids); err != nil {
			return err
		}
		buf.WriteString(`,"store":`)
		if err := bank.EncodeStore(&buf, saved); err != nil {
			return err
		}
		if err := field("network_user", nu); err != nil {
			return err
		}
		return field("webhooks", hooks)
	}()
	if err != nil {
		return nil, errSnapshot(err)
	}
	if err := field("journal", s.Requests()); err != nil {
		return nil, errSnapshot(err)
	}
	buf.WriteString(`,"faults":`)
	s.Faults.Mu.Lock()
	err = bank.EncodeValue(&buf, bank.Exported(reflect.ValueOf(&s.Faults.List).Elem()))
	s.Faults.Mu.Unlock()
	if err != nil {
		return nil, errSnapshot(err)
	}
	buf.WriteString("}\n")
	return buf.Bytes(), nil
}

// errSnapshot is a state the snapshot could not encode: the fake's own
// fault, 500 / "500".
func errSnapshot(err error) *apierr.Error {
	return apierr.New(reference.ErrServer, "internal_error", "The state could not be encoded: %v.", err)
}

// snapshotCopied, when set (by tests), runs between a snapshot's copy and
// its encoding.
var snapshotCopied func(*Console)

// restoredState is a decoded document, ready to be swapped in.
type restoredState struct {
	clock    time.Time
	store    *bank.Store
	hooks    api.StateHooks
	events   map[uint64]*bank.Event
	captured []*bank.Event // oldest first
	journal  []api.Request
	faults   []*api.Fault
}

func (s *Console) restore(data []byte, copied bool) error {
	rs, err := s.decodeState(data, copied)
	if err != nil {
		return err
	}
	s.swapIn(rs)
	s.Faults.Set(rs.faults)
	s.ResetRequests()
	for _, r := range rs.journal {
		s.Journal.Add(r, 0) // latency is not saved: restored calls show none
	}
	return nil
}

// swapIn replaces the store, the clock and the webhook side with rs's,
// under the store's lock.
func (s *Console) swapIn(rs *restoredState) {
	s.SwapInBank(rs.store, rs.clock, func() { s.Hooks.Restore(rs.hooks, rs.events, rs.captured) })
}

// decodeState decodes and checks a whole document without touching the
// server.
func (s *Console) decodeState(data []byte, copied bool) (*restoredState, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, bank.ErrState("not a JSON object: %v", err)
	}
	var format string
	var version int
	if json.Unmarshal(top["format"], &format) != nil || format != stateFormat {
		return nil, bank.ErrState(`"format" must be %q.`, stateFormat)
	}
	if err := json.Unmarshal(top["version"], &version); err != nil || version != StateVersion {
		return nil, bank.ErrState(`version %s is not supported; this fake reads version %d.`, top["version"], StateVersion)
	}
	for _, k := range stateKeys {
		if _, ok := top[k]; !ok {
			return nil, bank.ErrState("%q is missing.", k)
		}
	}
	for k := range top {
		if !slices.Contains(stateKeys, k) {
			return nil, bank.ErrState("unknown key %q.", k)
		}
	}
	var seed uint64
	var clientID, clock, networkUser string
	var ids bank.StateIDs
	rs := &restoredState{}
	for _, f := range []struct {
		key string
		v   any
	}{{"seed", &seed}, {"client_id", &clientID}, {"clock", &clock}, {"ids", &ids}, {"network_user", &networkUser},
		{"webhooks", &rs.hooks}, {"journal", &rs.journal}} {
		if err := bank.StrictUnmarshal(top[f.key], f.v); err != nil {
			return nil, bank.ErrState("%q: %v", f.key, err)
		}
	}
	if seed != s.Cfg.Seed && !copied {
		return nil, bank.ErrState("it was saved by a server with id seed %d; this one has %d (PUT /_fake/state?copy=true, RestoreCopy, takes another platform's document).", seed, s.Cfg.Seed)
	}
	if clientID != s.Cfg.ClientID && !copied {
		return nil, bank.ErrState("it was saved by a server with client id %q; this one has %q (PUT /_fake/state?copy=true, RestoreCopy, takes another platform's document).", clientID, s.Cfg.ClientID)
	}
	var err error
	if rs.clock, err = time.Parse(time.RFC3339Nano, clock); err != nil {
		return nil, bank.ErrState(`"clock": %v`, err)
	}

	st, err := s.DecodeBankStore(top["store"], ids, networkUser)
	if err != nil {
		return nil, err
	}
	if err := bank.DecodeValue(top["faults"], bank.Exported(reflect.ValueOf(&rs.faults).Elem())); err != nil {
		return nil, bank.ErrState(`"faults": %v`, err)
	}
	if err := bank.CheckStore(st); err != nil {
		return nil, bank.ErrState(`%v`, err)
	}
	if err := rs.linkEvents(st); err != nil {
		return nil, bank.ErrState(`"webhooks": %v`, err)
	}
	rs.store = st
	return rs, nil
}

// linkEvents builds the events of rs.hooks on the decoded store st (the
// bank's LinkStateEvents) and checks every reference to them.
func (rs *restoredState) linkEvents(st *bank.Store) error {
	var err error
	if rs.events, rs.captured, err = bank.LinkStateEvents(st, rs.hooks.Seq, rs.hooks.Events, api.ChaosFlags); err != nil {
		return err
	}
	for _, e := range rs.hooks.Log {
		n, err := bank.DeliveryAttempts(rs.events, "a log entry", e.Seq, e.Delivery)
		if err != nil {
			return err
		}
		if e.Attempt < 0 || e.Attempt >= n {
			return fmt.Errorf("a log entry names attempt %d of a delivery of event %d, which made %d", e.Attempt, e.Seq, n)
		}
	}
	for _, r := range rs.hooks.Retries {
		if _, err := bank.DeliveryAttempts(rs.events, "a retry", r.Seq, r.Delivery); err != nil {
			return err
		}
	}
	if !slices.IsSortedFunc(rs.hooks.Retries, func(a, b api.StateRetry) int { return cmp.Compare(a.At, b.At) }) {
		return fmt.Errorf("retries are not in due order")
	}
	for _, q := range rs.hooks.Queued {
		if _, err := bank.DeliveryAttempts(rs.events, "a queued delivery", q.Seq, q.Delivery); err != nil {
			return err
		}
	}
	return nil
}

// Snapshot is documented at synapsefake.Server.Snapshot.
func (s *Console) Snapshot(w io.Writer) error {
	b, err := s.snapshot()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Restore is documented at synapsefake.Server.Restore.
func (s *Console) Restore(r io.Reader) error { return s.restoreFrom(r, false) }

// RestoreCopy is documented at synapsefake.Server.RestoreCopy.
func (s *Console) RestoreCopy(r io.Reader) error { return s.restoreFrom(r, true) }

// restoreFrom reads a document and restores it, one restore at a time;
// copied takes one of another client id or seed.
func (s *Console) restoreFrom(r io.Reader, copied bool) error {
	if !s.restoring.TryLock() {
		return errRestoreBusy
	}
	defer s.restoring.Unlock()
	data, err := s.readState(r)
	if err != nil {
		return err
	}
	return s.restore(data, copied)
}

// controlReset serves POST /_fake/reset.
func (s *Console) controlReset(w http.ResponseWriter, r *http.Request) {
	if _, err := ControlBody[struct{}](r); err != nil {
		s.Fail(w, err)
		return
	}
	s.Reset()
	s.ControlOK(w, nil)
}

// controlSnapshot serves GET /_fake/state: the document Snapshot writes.
func (s *Console) controlSnapshot(w http.ResponseWriter, r *http.Request) {
	b, err := s.snapshot()
	if err != nil {
		s.Fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// controlRestore serves PUT /_fake/state: Restore from the body, or with
// ?copy=true RestoreCopy (another platform's document). A document Restore
// refuses is 400 / "200" (invalid_state, or body_too_large past the size
// limit), one sent while another is being restored 429 / "429"; each
// changes nothing.
func (s *Console) controlRestore(w http.ResponseWriter, r *http.Request) {
	restore := s.Restore
	switch q := r.URL.Query(); {
	case q.Get("copy") == "true":
		restore = s.RestoreCopy
	case q.Has("copy") && q.Get("copy") != "false":
		s.Fail(w, apierr.Payload("invalid_copy", "copy must be true or false, not %q.", jsonx.Clip(q.Get("copy"))))
		return
	}
	if err := restore(r.Body); err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, nil)
}
