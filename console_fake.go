package synapsefake

import "sync"

// consoleCore is the console's part of a Server: the control API, the
// dashboard, saved state, worlds and platforms, over the wire it embeds.
type consoleCore struct {
	wireCore
	cfg       consoleConfig // the options the console reads; its wireConfig is the wire's
	restoring sync.Mutex    // held while a state document is restored: one at a time
	// platforms is the Platforms the server is a platform of, nil for one
	// of its own; ctlBase is where its control API is served then
	// (/_fake/platforms/{client_id}/ for a made one), "" for controlPrefix.
	platforms *Platforms
	ctlBase   string
	base      string // URL(): the origin check accepts its host
}

// consoleConfig is the console's part of the options, over the wire's: New
// copies it from the root's config.
type consoleConfig struct {
	wireConfig
	clientName   string
	maxState     int64
	controlToken string
	allowedHosts []string
	// root is the Server's whole config, which LoadWorld copies into its
	// scratch Server: an upward use left to step 5, with Platforms', which
	// build Servers too.
	root *config
}
