package main

import (
	"testing"
	"time"
)

func TestEnvelope(t *testing.T) {
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		wantWhy string
	}{
		{"success object", 200, `{"success":true,"_id":"x"}`, ""},
		{"error envelope", 409, `{"error":{"en":"No.","code":"x"},"error_code":"400","http_code":"409","success":false}`, ""},
		{"success without success", 200, `{"_id":"x"}`, "a 200 without success: true"},
		{"success with http_code 200", 200, `{"success":true,"error_code":"0","http_code":"200"}`, ""},
		{"success with another http_code", 200, `{"success":true,"error_code":"0","http_code":"202"}`, `a 200 whose http_code is not "200"`},
		{"numeric error_code", 400, `{"error":{},"error_code":200,"http_code":"400"}`, "not the error envelope"},
		{"http_code not the status", 400, `{"error":{},"error_code":"200","http_code":"409"}`, "not the error envelope"},
		{"no error object", 400, `{"error_code":"200","http_code":"400"}`, "not the error envelope"},
		{"plain text", 500, "internal error\n", "not a JSON object"},
		{"array", 200, `[]`, "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, why := envelope(tc.status, []byte(tc.body)); why != tc.wantWhy {
				t.Errorf("envelope(%d, %s) says %q, want %q", tc.status, tc.body, why, tc.wantWhy)
			}
		})
	}
}

func TestP99(t *testing.T) {
	var samples []sample
	for i := range 200 {
		samples = append(samples, sample{at: time.Duration(i) * 100 * time.Millisecond, took: time.Duration(i%100+1) * time.Millisecond})
	}
	for _, tc := range []struct {
		name     string
		from, to time.Duration
		want     time.Duration
		wantN    int
	}{
		{"first half", 0, 10 * time.Second, 99 * time.Millisecond, 100},
		{"all", 0, 20 * time.Second, 99 * time.Millisecond, 200},
		{"one sample", 0, 100 * time.Millisecond, time.Millisecond, 1},
		{"none", 30 * time.Second, 40 * time.Second, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, n := p99(samples, tc.from, tc.to)
			if got != tc.want || n != tc.wantN {
				t.Errorf("p99 over [%s, %s) = %s of %d, want %s of %d", tc.from, tc.to, got, n, tc.want, tc.wantN)
			}
		})
	}
}
