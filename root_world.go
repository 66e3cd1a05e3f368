package synapsefake

import "io"

// LoadWorld reads a world file (see World for the format) and creates its
// objects. The ids come from the server's id stream, so the same file loaded
// into fresh servers of the same seed gives the same ids. A file that is not
// valid, or that breaks a rule of the API, is refused with an error naming
// the entry (400 / "200" over HTTP) and changes nothing: the world is first
// loaded into a scratch server of the same options and clock time.
func (s *Server) LoadWorld(r io.Reader) (World, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxWorldBytes+1))
	switch {
	case err != nil:
		return World{}, errWorld("Unable to read the world file: %v.", err)
	case len(data) > maxWorldBytes:
		return World{}, errWorld("A world file is at most %d bytes.", maxWorldBytes)
	}
	s.runDue()
	now := s.Now()
	plan, err := parseWorld(data, now)
	if err != nil {
		return World{}, err
	}
	scratch := New(func(c *config) {
		*c = s.cfg
		c.clock, c.deliverWebhooks, c.captureLimit = nil, false, 0
	})
	scratch.frozen.now = now
	defer scratch.Close()
	if _, err := plan.apply(scratch, now); err != nil {
		return World{}, err
	}
	scratch.store.runDue(now) // the processing steps only: statements and webhooks do not change a status
	for _, tp := range plan.txs {
		if t, _ := scratch.Transaction(tp.id); t.Status != tp.status {
			return World{}, errWorld("%s: declared %s, but by now the clock has moved it to %s; date it later or declare the status it reaches.", tp.label, tp.status, t.Status)
		}
	}
	return plan.apply(s, now)
}
