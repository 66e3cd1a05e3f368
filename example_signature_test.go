package synapsefake_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/synapsefake/synapsefake"
)

// A receiver checks a delivery's X-Synapse-Signature-Sha256 with the hex
// HMAC-SHA256, keyed with the client secret, of the object's id, a literal
// "+" and the client id (X-Synapse-Signature is the same with SHA-1).
// VerifySignature checks both headers; the recipe by hand gives the same.
func ExampleVerifySignature() {
	fake := synapsefake.New()
	defer fake.Close()
	var mu sync.Mutex
	var header http.Header
	var objectID string // the body's _id.$oid
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			ID struct {
				OID string `json:"$oid"`
			} `json:"_id"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		header, objectID = r.Header.Clone(), body.ID.OID
	}))
	defer receiver.Close()
	if _, err := fake.AddSubscription(receiver.URL, "USERS|POST"); err != nil {
		panic(err)
	}
	if _, err := fake.AddUser(synapsefake.UserSeed{}); err != nil {
		panic(err)
	}
	fake.Flush() // the delivery has been made

	mu.Lock()
	defer mu.Unlock()
	message := objectID + "+" + fake.ClientID()
	mac := hmac.New(sha256.New, []byte(fake.ClientSecret()))
	mac.Write([]byte(message))
	signature := hex.EncodeToString(mac.Sum(nil))
	fmt.Println(message)
	fmt.Println(signature)
	fmt.Println(hmac.Equal([]byte(signature), []byte(header.Get("X-Synapse-Signature-Sha256"))))
	fmt.Println(synapsefake.VerifySignature(header, objectID, fake.ClientID(), fake.ClientSecret()))
	// Output:
	// ac251caf79e108dbe90a4b53+client_id_synapsefake0000000000000000000000
	// 45244941e0bc6246490a8aac54542b7ce0dc29b1e65664bb671db6ddfd34b190
	// true
	// true
}
