// Webhook chaos, the console's side: the control routes that read and set it.

package console

import (
	"io"
	"net/http"

	"github.com/synapsefake/synapsefake/internal/api"
	"github.com/synapsefake/synapsefake/internal/apierr"
)

// controlGetChaos serves GET /_fake/webhooks/chaos: the settings in force.
func (s *Console) controlGetChaos(w http.ResponseWriter, r *http.Request) {
	s.ControlOK(w, map[string]any{"chaos": api.ChaosWire(s.WebhookChaos())})
}

// controlSetChaos serves PUT /_fake/webhooks/chaos: the body, in
// ParseWebhookChaos's form, replaces the settings.
func (s *Console) controlSetChaos(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(io.LimitReader(r.Body, api.MaxBody+1))
	if err != nil || len(data) > api.MaxBody {
		s.Fail(w, apierr.Payload("invalid_body", "Unable to read the request body (at most %d bytes).", api.MaxBody))
		return
	}
	c, err := api.ParseWebhookChaos(data)
	if err == nil {
		err = s.SetWebhookChaos(c)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"chaos": api.ChaosWire(s.WebhookChaos())})
}

// controlDeleteChaos serves DELETE /_fake/webhooks/chaos: chaos off.
func (s *Console) controlDeleteChaos(w http.ResponseWriter, r *http.Request) {
	_ = s.SetWebhookChaos(api.WebhookChaos{})
	s.ControlOK(w, map[string]any{"chaos": api.ChaosWire(s.WebhookChaos())})
}
