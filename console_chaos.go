package synapsefake

import (
	"io"
	"net/http"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// controlGetChaos serves GET /_fake/webhooks/chaos: the settings in force.
func (s *consoleCore) controlGetChaos(w http.ResponseWriter, r *http.Request) {
	s.controlOK(w, map[string]any{"chaos": s.WebhookChaos().wire()})
}

// controlSetChaos serves PUT /_fake/webhooks/chaos: the body, in
// ParseWebhookChaos's form, replaces the settings.
func (s *consoleCore) controlSetChaos(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(data) > maxBody {
		s.fail(w, apierr.Payload("invalid_body", "Unable to read the request body (at most %d bytes).", maxBody))
		return
	}
	c, err := ParseWebhookChaos(data)
	if err == nil {
		err = s.SetWebhookChaos(c)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.controlOK(w, map[string]any{"chaos": s.WebhookChaos().wire()})
}

// controlDeleteChaos serves DELETE /_fake/webhooks/chaos: chaos off.
func (s *consoleCore) controlDeleteChaos(w http.ResponseWriter, r *http.Request) {
	_ = s.SetWebhookChaos(WebhookChaos{})
	s.controlOK(w, map[string]any{"chaos": s.WebhookChaos().wire()})
}
