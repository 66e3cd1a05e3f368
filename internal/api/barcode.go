// Barcodes, the wire's side: the route that answers a barcode.

package api

import (
	"encoding/base64"
	"net/http"

	"github.com/synapsefake/synapsefake/internal/bank"
	"github.com/synapsefake/synapsefake/reference"
)

// handleBarcode serves POST /v3.1/users/{user_id}/nodes/{node_id}/barcode,
// the retail cash-deposit (eCash) barcode of a DEPOSIT-US node.
//
// The spec names no scope for this route. The fake asks for an oauth_key
// bound to the path's user that holds NODE|GET: generating a barcode reads
// the node and changes nothing (no balance moves, nothing is stored).
//
// The answer's barcode is 30 digits: 29 taken from a SHA-256 digest of the
// new _id, the amount in cents and the retailer_id, then a Luhn (mod 10)
// check digit. barcode_base64 is a standard-base64 PNG of those digits in
// Interleaved 2 of 5: black bars on white, 2 px per narrow module, wide
// elements 3 modules, 10-module quiet zones (598 x 120 px).
func (s *Wire) handleBarcode(w http.ResponseWriter, r *http.Request) {
	if _, err := s.authorize(r, access{userIP: true, scope: reference.ScopeNodeGet}); err != nil {
		s.Fail(w, err)
		return
	}
	req, err := decodeValid[bank.BarcodeRequest](r)
	if err != nil {
		s.Fail(w, err)
		return
	}
	id, err := s.MakeBarcode(r.PathValue("user_id"), r.PathValue("node_id"), req)
	if err != nil {
		s.Fail(w, err)
		return
	}
	digits := bank.BarcodeDigits(id, bank.ToCents(*req.Amount.Amount), *req.RetailerID)
	img, err := bank.RenderITF(digits)
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.okObject(w, bank.BarcodeView{ID: id, Barcode: digits, BarcodeBase64: base64.StdEncoding.EncodeToString(img)})
}
