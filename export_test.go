package synapsefake

import "time"

// MoveFrozenClock moves the default frozen clock by d as Advance does, but
// runs nothing: what falls due runs at the next request, as on a server
// whose clock moves by itself. For the package's external tests and
// benchmarks only.
func (s *Server) MoveFrozenClock(d time.Duration) { s.core.Frozen.Add(d) }
