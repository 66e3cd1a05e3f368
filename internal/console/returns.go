// Returns, the console's side: the control routes that return, schedule and set rules.

package console

import (
	"net/http"
	"time"

	"github.com/synapsefake/synapsefake/internal/bank"
)

// controlReturnRequest is the body of POST
// /_fake/transactions/{trans_id}/return: the code, and late to return past
// the code's window.
type controlReturnRequest struct {
	Code string `json:"code"`
	Late bool   `json:"late"`
}

// controlReturn serves POST /_fake/transactions/{trans_id}/return {code, late}.
func (s *Console) controlReturn(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlReturnRequest](r)
	if err == nil {
		id := r.PathValue("trans_id")
		if req.Late {
			err = s.ReturnLate(id, req.Code)
		} else {
			err = s.Return(id, req.Code)
		}
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

// controlScheduleRequest is the body of POST
// /_fake/transactions/{trans_id}/schedule-return.
type controlScheduleRequest struct {
	Code  string `json:"code"`
	After string `json:"after"` // a Go duration after settlement, "720h"
	Late  bool   `json:"late"`
}

// controlScheduleReturn serves POST /_fake/transactions/{trans_id}/schedule-return
// {code, after, late}.
func (s *Console) controlScheduleReturn(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlScheduleRequest](r)
	var after time.Duration
	if err == nil {
		after, err = bank.ParseAfter(req.After)
	}
	if err == nil {
		err = s.ScheduleReturnWith(r.PathValue("trans_id"), req.Code, after, req.Late)
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.controlAnswerTx(w, r.PathValue("trans_id"))
}

// controlRuleView is a return rule in the control API: the body of POST
// /_fake/return-rules and each of the rules answered.
type controlRuleView struct {
	NodeID      string `json:"node_id"`
	AccountNum  string `json:"account_num"`
	AmountCents int64  `json:"amount_cents"`
	Note        string `json:"note"`
	Code        string `json:"code"`
	Queue       bool   `json:"queue"`
	After       string `json:"after"` // a Go duration
	Late        bool   `json:"late"`
}

// controlReturnRules serves GET /_fake/return-rules.
func (s *Console) controlReturnRules(w http.ResponseWriter, r *http.Request) {
	s.ControlOK(w, map[string]any{"rules": controlRules(s.ReturnRules())})
}

// controlAddReturnRule serves POST /_fake/return-rules: it adds a rule and
// answers the rules in force.
func (s *Console) controlAddReturnRule(w http.ResponseWriter, r *http.Request) {
	req, err := ControlBody[controlRuleView](r)
	var after time.Duration
	if err == nil {
		after, err = bank.ParseAfter(req.After)
	}
	var rules []bank.ReturnRule
	if err == nil {
		rules, err = s.AddReturnRule(bank.ReturnRule{NodeID: req.NodeID, AccountNum: req.AccountNum, AmountCents: req.AmountCents,
			Note: req.Note, Code: req.Code, Queue: req.Queue, After: after, Late: req.Late})
	}
	if err != nil {
		s.Fail(w, err)
		return
	}
	s.ControlOK(w, map[string]any{"rules": controlRules(rules)})
}

// controlClearReturnRules serves DELETE /_fake/return-rules.
func (s *Console) controlClearReturnRules(w http.ResponseWriter, r *http.Request) {
	s.ClearReturnRules()
	s.ControlOK(w, map[string]any{"rules": []controlRuleView{}})
}

func controlRules(rules []bank.ReturnRule) []controlRuleView {
	out := make([]controlRuleView, len(rules))
	for i, r := range rules {
		out[i] = controlRuleView{NodeID: r.NodeID, AccountNum: r.AccountNum, AmountCents: r.AmountCents, Note: r.Note,
			Code: r.Code, Queue: r.Queue, After: r.After.String(), Late: r.Late}
	}
	return out
}
