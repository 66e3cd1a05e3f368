package benchpair

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// createTxShape is the shape of a create-transaction body as the fake
// decodes it: to, amount and extra, with pointers for required fields.
type createTxShape struct {
	To *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"to"`
	Amount *struct {
		Amount   *float64 `json:"amount"`
		Currency *string  `json:"currency"`
	} `json:"amount"`
	Extra *struct {
		IP   *string `json:"ip"`
		Note string  `json:"note"`
	} `json:"extra"`
}

// Baseline is the floor the fake's create-transaction (and GET) figures
// are measured against: a POST has its body decoded into the shape the fake
// decodes (400 when it is not JSON or lacks to, amount or extra); every
// other request, and every good POST, is answered with answer as JSON.
func Baseline(answer []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			var req createTxShape
			if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.To == nil || req.Amount == nil || req.Extra == nil {
				http.Error(w, fmt.Sprint("bad body: ", err), http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
}
