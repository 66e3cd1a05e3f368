// JIT decisions, the wire's side: asking the platform over HTTP, with a deadline.

package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// jitDeadline is the configured deadline of an answer.
func (s *Wire) jitDeadline() time.Duration {
	if d := s.Cfg.JitDeadline; d > 0 {
		return d
	}
	return bank.DefaultJITDeadline
}

// AskPlatform POSTs a's question, signed as every webhook is, and waits
// for the answer at most the JIT deadline. Callers hold no lock: the
// platform may call the fake back while it decides.
func (s *Wire) AskPlatform(a *bank.JITAsk) bank.JITOutcome {
	if !s.Cfg.DeliverWebhooks {
		return bank.JITOutcome{Reason: "WithoutWebhookDelivery: the platform is not asked"}
	}
	deadline := s.jitDeadline()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.Url, bytes.NewReader(a.Body))
	if err != nil {
		return bank.JITOutcome{Reason: err.Error()}
	}
	sha1Hex, sha256Hex := Signatures(a.TxID(), s.Cfg.ClientID, s.Cfg.ClientSecret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Synapse-Signature", sha1Hex)
	req.Header.Set("X-Synapse-Signature-Sha256", sha256Hex)
	late := func(err error) bank.JITOutcome {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return bank.JITOutcome{Reason: fmt.Sprintf("no answer within %v", deadline)}
		}
		return bank.JITOutcome{Reason: err.Error()}
	}
	resp, err := s.WebhookClient.Do(req)
	if err != nil {
		return late(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, bank.MaxJITAnswer))
	if err != nil {
		return late(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return bank.JITOutcome{Reason: fmt.Sprintf("answer with HTTP status %d", resp.StatusCode)}
	}
	return parseJITAnswer(raw, a.Amount())
}

// jitAnswer is the body of a platform's answer.
type jitAnswer struct {
	Decision     string            `json:"decision"`
	TotalAmount  *float64          `json:"total_amount"`
	FundingNodes []json.RawMessage `json:"funding_nodes"`
}

// parseJITAnswer reads an answer about a swipe of amount.
func parseJITAnswer(raw []byte, amount bank.Cents) bank.JITOutcome {
	var ans jitAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return bank.JITOutcome{Reason: "answer is not a decision object: " + err.Error()}
	}
	switch {
	case ans.Decision != "PASS" && ans.Decision != "FAIL":
		return bank.JITOutcome{Reason: fmt.Sprintf(`decision %q is neither "PASS" nor "FAIL"`, ans.Decision)}
	case len(ans.FundingNodes) > 0:
		return bank.JITOutcome{Reason: "funding_nodes are not supported by synapsefake"}
	case ans.Decision == "FAIL":
		return bank.JITOutcome{Decision: "FAIL"}
	case ans.TotalAmount == nil:
		return bank.JITOutcome{Decision: "PASS", Total: amount}
	case !bank.ValidAmount(*ans.TotalAmount) || bank.ToCents(*ans.TotalAmount) > amount:
		return bank.JITOutcome{Reason: fmt.Sprintf("total_amount %v is not from 0.01 to the amount %s", *ans.TotalAmount, amount.Usd())}
	}
	return bank.JITOutcome{Decision: "PASS", Total: bank.ToCents(*ans.TotalAmount)}
}
