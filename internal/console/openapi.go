package console

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/synapsefake/synapsefake/openapi"
)

// openAPIServer is the server URL the document names, which
// controlOpenAPI replaces with the fake's own.
const openAPIServer = `"url": "http://127.0.0.1:8080/v3.1"`

// controlOpenAPI serves GET /_fake/openapi.json: the OpenAPI 3.1 document
// of the v3.1 API (openapi/v3.1.yaml), its server the fake's own URL, so
// that a viewer's requests reach this fake.
func (s *Console) controlOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc := openapi.JSON()
	if s.Base != "" {
		url := strconv.Quote(s.Base)
		doc = bytes.Replace(doc, []byte(openAPIServer), []byte(`"url": `+url), 1)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(doc)))
	_, _ = w.Write(doc)
}
