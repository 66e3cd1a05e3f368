package synapsefake_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/synapsefake/synapsefake"
)

// Several platforms behind one handler: each request goes to the platform
// its X-SP-GATEWAY names, and each platform has its own users and clock.
func ExamplePlatforms() {
	platforms := synapsefake.NewPlatforms(synapsefake.WithStartTime(synapsefake.DefaultStartTime()))
	defer platforms.Close()
	a, err := platforms.Add(synapsefake.PlatformConfig{ClientID: "service_a", ClientSecret: "secret_a"})
	if err != nil {
		panic(err)
	}
	if _, err := a.AddUser(synapsefake.UserSeed{LegalNames: []string{"Ann"}}); err != nil {
		panic(err)
	}
	for _, gw := range []string{a.Gateway(), platforms.Default().Gateway()} {
		req := httptest.NewRequest("GET", "/v3.1/users", nil)
		req.Header.Set("X-SP-GATEWAY", gw)
		req.Header.Set("X-SP-USER", "|fingerprint")
		req.Header.Set("X-SP-USER-IP", "127.0.0.1")
		rec := httptest.NewRecorder()
		platforms.ServeHTTP(rec, req)
		var body struct {
			UsersCount int `json:"users_count"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		fmt.Println(rec.Code, body.UsersCount)
	}
	a.Advance(24 * time.Hour)
	fmt.Println(a.Now().Sub(platforms.Default().Now()))
	// Output:
	// 200 1
	// 200 0
	// 24h0m0s
}
