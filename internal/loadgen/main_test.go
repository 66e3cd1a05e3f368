package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestDrive(t *testing.T) {
	var served atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1)%5 == 0 {
			w.WriteHeader(http.StatusConflict)
		}
	}))
	defer ts.Close()
	w := &world{base: ts.URL}
	send := func(ctx context.Context, client *http.Client) error {
		_, err := w.do(ctx, client, "GET", "/", nil, nil)
		return err
	}
	ok, failed, first := drive(ts.Client(), send, 3, 100*time.Millisecond)
	if ok == 0 || failed == 0 || first == nil || !strings.Contains(first.Error(), "409") {
		t.Errorf("drive: %d ok, %d failed, first %v; want some of each, the first a 409", ok, failed, first)
	}
	// Every answer is counted once, except those cut off by the end.
	if total := ok + failed; total > served.Load() || total < served.Load()-3 {
		t.Errorf("drive counted %d answers of %d served", total, served.Load())
	}
}

func TestRunRefusesUnknownRow(t *testing.T) {
	_, err := run(config{rows: "create-c4,nope", rounds: 1, round: time.Millisecond}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `unknown row "nope"`) {
		t.Errorf("run with an unknown row: %v", err)
	}
}
