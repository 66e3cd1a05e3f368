// Command synapsefake serves the fake v3.1 financial-account API on a real
// listener, for offline development and for clients in other languages.
//
//	go run ./cmd/synapsefake            # serves on 127.0.0.1:8080
//	go run ./cmd/synapsefake -addr :9090
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/synapsefake/synapsefake"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "synapsefake:", err)
		os.Exit(1)
	}
}

// run parses flags, serves until SIGINT or SIGTERM, then shuts down.
func run(args []string, out io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, out, nil)
}

// serve runs the server until ctx is done. ready, when not nil, receives the
// base URL once the listener is open.
func serve(ctx context.Context, args []string, out io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("synapsefake", flag.ContinueOnError)
	fs.SetOutput(out)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	seed := fs.Uint64("seed", 1, "seed of the id stream: the same seed gives the same ids")
	clockMode := fs.String("clock", "real", "real: wall-clock time; manual: frozen until advanced")
	clientID := fs.String("client-id", "", "client id (default: a fixed test id)")
	clientSecret := fs.String("client-secret", "", "client secret (default: a fixed test secret)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := "http://" + l.Addr().String() + "/v3.1"
	opts := []synapsefake.Option{synapsefake.WithIDSeed(*seed), synapsefake.WithBaseURL(base)}
	switch *clockMode {
	case "real":
		opts = append(opts, synapsefake.WithClock(clock.New()))
	case "manual":
	default:
		l.Close()
		return fmt.Errorf("-clock must be real or manual, not %q", *clockMode)
	}
	if *clientID != "" || *clientSecret != "" {
		if *clientID == "" || *clientSecret == "" {
			l.Close()
			return errors.New("-client-id and -client-secret go together")
		}
		opts = append(opts, synapsefake.WithClientCredentials(*clientID, *clientSecret))
	}
	fake := synapsefake.New(opts...)
	user := fake.AddUser(synapsefake.UserSeed{Email: "demo@example.com", LegalNames: []string{"Demo User"}, Fingerprint: "demo-fingerprint"})
	fmt.Fprintf(out, "synapsefake serving %s\n", base)
	fmt.Fprintf(out, "  X-SP-GATEWAY: %s\n", fake.Gateway())
	fmt.Fprintf(out, "  seeded user %s (fingerprint demo-fingerprint, refresh_token %s)\n", user.ID, user.RefreshToken)
	fmt.Fprintf(out, "try: curl %s/loans-limits\n", base)

	srv := &http.Server{Handler: fake, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	if ready != nil {
		ready <- base
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.SetOutput(out)
	fmt.Fprintln(out, "synapsefake stopped")
	return nil
}
