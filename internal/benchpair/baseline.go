package benchpair

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
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
			if _, ok := decodeCreate(w, r); !ok {
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
}

// decodeCreate decodes a create-transaction body; when it is not one, it
// answers 400 and reports false.
func decodeCreate(w http.ResponseWriter, r *http.Request) (createTxShape, bool) {
	var req createTxShape
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.To == nil || req.Amount == nil || req.Extra == nil {
		http.Error(w, fmt.Sprint("bad body: ", err), http.StatusBadRequest)
		return req, false
	}
	return req, true
}

// Keeper is Baseline that also keeps what each good POST created, as the
// fake keeps a transaction: the decoded body and a copy of the answer,
// under a new random 24-character hex id, in a map and in a list in order.
// It is not a floor the targets are set against: it tells how much of the
// fake's distance from Baseline is the cost of keeping state at all (a
// heap that grows with every request), rather than of the fake's own work.
type Keeper struct {
	answer []byte
	mu     sync.Mutex
	kept   map[string]*keptPost
	order  []string
}

// keptPost is what a Keeper keeps of one POST.
type keptPost struct {
	id     string
	req    createTxShape
	answer []byte
	at     time.Time
}

// NewKeeper is a Keeper answering answer.
func NewKeeper(answer []byte) *Keeper {
	return &Keeper{answer: answer, kept: make(map[string]*keptPost)}
}

// ServeHTTP answers as Baseline does, and keeps each good POST.
func (k *Keeper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		req, ok := decodeCreate(w, r)
		if !ok {
			return
		}
		var id [12]byte
		binary.LittleEndian.PutUint64(id[:], rand.Uint64())
		binary.LittleEndian.PutUint32(id[8:], rand.Uint32())
		p := &keptPost{id: hex.EncodeToString(id[:]), req: req, answer: bytes.Clone(k.answer), at: time.Now()}
		k.mu.Lock()
		k.kept[p.id] = p
		k.order = append(k.order, p.id)
		k.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(k.answer)
}

// Len is how many POSTs k keeps.
func (k *Keeper) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.kept)
}
