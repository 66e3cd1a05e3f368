package synapsefake

import "io"

// WithMaxStateSize sets the largest state document, in bytes, that Restore
// and PUT /_fake/state read; a larger one is refused (400 / "200"
// body_too_large) and changes nothing. n <= 0 keeps
// DefaultMaxStateSize.
func WithMaxStateSize(n int64) Option {
	return func(cfg *config) { cfg.maxState = n }
}

// Snapshot writes the server's whole state as one JSON document (format
// "synapsefake-state", version StateVersion): the store, the clock, the id
// stream, the webhook capture, log, queued deliveries and retries, the
// request journal and pending faults. Restore reads it back. Deliveries in
// the middle of an attempt are saved as queued: a restored server makes
// that attempt again.
func (s *Server) Snapshot(w io.Writer) error {
	b, err := s.snapshot()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Restore replaces the server's whole state with a document Snapshot
// wrote. A document that is not valid JSON, is of another format or
// version, was saved by a server with another id seed or client id, or
// does not hold together (a transaction event of an unknown transaction,
// a log entry of a missing attempt...) is refused with an error, and the
// state is left as it was. The server keeps its options (URL, client
// credentials, webhook and journal limits). A mock or the default clock is
// set to the saved time; a real clock cannot be set, so what fell due
// between the save and now runs at the next request.
func (s *Server) Restore(r io.Reader) error {
	if !s.restoring.TryLock() {
		return errRestoreBusy
	}
	defer s.restoring.Unlock()
	data, err := s.readState(r)
	if err != nil {
		return err
	}
	return s.restore(data, false)
}

// RestoreCopy is Restore of a document another server saved, one with
// another client id or id seed: another platform of a Platforms, say, to
// start each test's platform from one prepared state. Its users, nodes,
// transactions, keys, subscriptions, clock, id stream, webhooks and
// journal become this server's; the server keeps its own credentials,
// name and options, so objects show this server's client and webhooks
// are signed with its secret from now on. What was recorded before the
// copy (the captured webhooks' bodies, the journal) stays as it was sent,
// and the webhook log's ids are this server's. Every other check of
// Restore holds.
func (s *Server) RestoreCopy(r io.Reader) error {
	if !s.restoring.TryLock() {
		return errRestoreBusy
	}
	defer s.restoring.Unlock()
	data, err := s.readState(r)
	if err != nil {
		return err
	}
	return s.restore(data, true)
}
