// Package rent is the application the README's first test tests: its own
// small client for the API, as a team would write it, pointed at the fake
// by the test. It is not part of the fake.
package rent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
)

// Client is the application's API client.
type Client struct {
	BaseURL      string // e.g. https://uat-api.synapsefi.com/v3.1, or fake.URL() in a test
	ClientID     string
	ClientSecret string
	UserKey      string // the user's oauth_key
	Fingerprint  string // the user's device
}

// PayRent sends usd dollars from the user's node to the landlord's node and
// returns the transaction's id.
func (c Client) PayRent(userID, fromNode, landlordNode string, usd float64) (string, error) {
	body, _ := json.Marshal(map[string]any{
		"to":     map[string]any{"type": "ACH-US", "id": landlordNode},
		"amount": map[string]any{"amount": usd, "currency": "USD"},
		"extra":  map[string]any{"ip": "127.0.0.1", "note": "Rent"},
	})
	req, err := http.NewRequest("POST", c.BaseURL+"/users/"+userID+"/nodes/"+fromNode+"/trans", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("X-SP-GATEWAY", c.ClientID+"|"+c.ClientSecret)
	req.Header.Set("X-SP-USER", c.UserKey+"|"+c.Fingerprint)
	req.Header.Set("X-SP-USER-IP", "127.0.0.1")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var answer struct {
		ID    string `json:"_id"`
		Error struct {
			En string `json:"en"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		return "", fmt.Errorf("pay rent: %s: %w", resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("pay rent: %s: %s", resp.Status, answer.Error.En)
	}
	return answer.ID, nil
}
