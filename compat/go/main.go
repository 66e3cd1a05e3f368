// Command compat-go runs the official Go client, SynapseGo, unmodified
// against a running standalone fake and checks what it returns: every
// exported method of its Client and User and the Error method of each of
// its error types, one line per check, ending with "N passed, M failed"
// (and ", K skipped": calls that meet one of the SDK's own bugs, each listed
// with the reason and not counted).
//
// Usage (compat/go/run.sh builds the fake and this program and runs it):
//
//	SYNAPSEFAKE_CLIENT_ID=id SYNAPSEFAKE_CLIENT_SECRET=secret compat-go http://127.0.0.1:PORT/v3.1
//
// SynapseGo hard-codes its host (https://uat-api.synapsefi.com/v3.1 in
// developer mode) and sends through a package-level gorequest agent whose
// own transport ignores proxies. So this program, and only it, sets
// gorequest.DisableTransportSwap (the agent then uses its http.Client's
// default, http.DefaultTransport) and replaces http.DefaultTransport with a
// RoundTripper that sends each request to the fake's scheme and host,
// unchanged otherwise. Both are process-wide: the checks run one at a time.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/parnurzeal/gorequest"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: compat-go BASE_URL (e.g. http://127.0.0.1:8080/v3.1), with SYNAPSEFAKE_CLIENT_ID and SYNAPSEFAKE_CLIENT_SECRET set")
		os.Exit(2)
	}
	base, err := url.Parse(os.Args[1])
	if err != nil || base.Host == "" || base.Path != "/v3.1" {
		fmt.Fprintf(os.Stderr, "compat-go: %q is not the fake's base URL, http://HOST:PORT/v3.1\n", os.Args[1])
		os.Exit(2)
	}
	inner := http.DefaultTransport.(*http.Transport).Clone()
	inner.ResponseHeaderTimeout = 10 * time.Second // gorequest sets no timeout
	w := &wire{fake: base, inner: inner}
	gorequest.DisableTransportSwap = true
	http.DefaultTransport = w

	e := &env{
		harness:      &harness{wire: w, control: base.Scheme + "://" + base.Host},
		clientID:     os.Getenv("SYNAPSEFAKE_CLIENT_ID"),
		clientSecret: os.Getenv("SYNAPSEFAKE_CLIENT_SECRET"),
	}
	runChecks(e)
	os.Exit(e.finish())
}

// decode reads a JSON object, nil when it is not one.
func decode(b []byte) map[string]interface{} {
	var m map[string]interface{}
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}
