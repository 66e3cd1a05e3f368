package synapsefake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// jitDeadline is the configured deadline of an answer.
func (s *wireCore) jitDeadline() time.Duration {
	if d := s.cfg.jitDeadline; d > 0 {
		return d
	}
	return DefaultJITDeadline
}

// askPlatform POSTs a's question, signed as every webhook is, and waits
// for the answer at most the JIT deadline. Callers hold no lock: the
// platform may call the fake back while it decides.
func (s *wireCore) askPlatform(a *jitAsk) jitOutcome {
	if !s.cfg.deliverWebhooks {
		return jitOutcome{reason: "WithoutWebhookDelivery: the platform is not asked"}
	}
	deadline := s.jitDeadline()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url, bytes.NewReader(a.body))
	if err != nil {
		return jitOutcome{reason: err.Error()}
	}
	sha1Hex, sha256Hex := signatures(a.txID(), s.cfg.clientID, s.cfg.clientSecret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Synapse-Signature", sha1Hex)
	req.Header.Set("X-Synapse-Signature-Sha256", sha256Hex)
	late := func(err error) jitOutcome {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return jitOutcome{reason: fmt.Sprintf("no answer within %v", deadline)}
		}
		return jitOutcome{reason: err.Error()}
	}
	resp, err := s.webhookClient.Do(req)
	if err != nil {
		return late(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxJITAnswer))
	if err != nil {
		return late(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return jitOutcome{reason: fmt.Sprintf("answer with HTTP status %d", resp.StatusCode)}
	}
	return parseJITAnswer(raw, a.amount())
}

// jitAnswer is the body of a platform's answer.
type jitAnswer struct {
	Decision     string            `json:"decision"`
	TotalAmount  *float64          `json:"total_amount"`
	FundingNodes []json.RawMessage `json:"funding_nodes"`
}

// parseJITAnswer reads an answer about a swipe of amount.
func parseJITAnswer(raw []byte, amount cents) jitOutcome {
	var ans jitAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return jitOutcome{reason: "answer is not a decision object: " + err.Error()}
	}
	switch {
	case ans.Decision != "PASS" && ans.Decision != "FAIL":
		return jitOutcome{reason: fmt.Sprintf(`decision %q is neither "PASS" nor "FAIL"`, ans.Decision)}
	case len(ans.FundingNodes) > 0:
		return jitOutcome{reason: "funding_nodes are not supported by synapsefake"}
	case ans.Decision == "FAIL":
		return jitOutcome{decision: "FAIL"}
	case ans.TotalAmount == nil:
		return jitOutcome{decision: "PASS", total: amount}
	case !validAmount(*ans.TotalAmount) || toCents(*ans.TotalAmount) > amount:
		return jitOutcome{reason: fmt.Sprintf("total_amount %v is not from 0.01 to the amount %s", *ans.TotalAmount, amount.usd())}
	}
	return jitOutcome{decision: "PASS", total: toCents(*ans.TotalAmount)}
}
