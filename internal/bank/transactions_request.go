package bank

import (
	"encoding/base64"
	"unicode/utf8"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

type feeRequest struct {
	Fee  *float64 `json:"fee"`
	Note string   `json:"note"`
	To   *struct {
		ID *string `json:"id"`
	} `json:"to"`
}

// CreateTxRequest is the body of POST .../trans and one item of a batch.
type CreateTxRequest struct {
	To     *TxToRequest     `json:"to"`
	Amount *TxAmountRequest `json:"amount"`
	Extra  *TxExtraRequest  `json:"extra"`
	Fees   []feeRequest     `json:"fees"`
}

// TxToRequest is a create body's to: the receiving node.
type TxToRequest struct {
	Type *string `json:"type"`
	ID   *string `json:"id"`
}

// TxAmountRequest is a create body's amount.
type TxAmountRequest struct {
	Amount   *float64 `json:"amount"`
	Currency *string  `json:"currency"`
}

// TxExtraRequest is a create body's extra.
type TxExtraRequest struct {
	IP             *string `json:"ip"`
	Note           string  `json:"note"`
	SuppID         string  `json:"supp_id"`
	GroupID        *string `json:"group_id"`
	ProcessOn      *int    `json:"process_on"`
	SameDay        bool    `json:"same_day"`
	IdempotencyKey string  `json:"idempotency_key"`
	Other          *struct {
		Attachments []string `json:"attachments"`
	} `json:"other" strict:"any"` // the service keeps other keys too
}

// Validate applies the payload rules (400 / "200"); the rules that need the
// store (409 / "400") live in createTx.
func (r CreateTxRequest) Validate() error {
	switch {
	case r.To == nil || r.To.Type == nil || *r.To.Type == "":
		return apierr.Payload("missing_to_type", "to.type is required.")
	case r.To.ID == nil || *r.To.ID == "":
		return apierr.Payload("missing_to_id", "to.id is required.")
	case r.Amount == nil || r.Amount.Amount == nil:
		return apierr.Payload("missing_amount", "amount.amount is required.")
	case r.Amount.Currency == nil || *r.Amount.Currency == "":
		return apierr.Payload("missing_currency", "amount.currency is required.")
	case r.Extra == nil || r.Extra.IP == nil || *r.Extra.IP == "":
		return apierr.Payload("missing_ip", "extra.ip is required.")
	case !ValidAmount(*r.Amount.Amount):
		return errInvalidAmount("amount.amount")
	case utf8.RuneCountInString(r.Extra.Note) > maxNoteLength:
		return apierr.Payload("note_too_long", "extra.note must be at most %d characters.", maxNoteLength)
	case r.Extra.ProcessOn != nil && *r.Extra.ProcessOn > maxProcessOnDays:
		return apierr.Payload("invalid_process_on", "extra.process_on must be a day delta from 0 to %d.", maxProcessOnDays)
	}
	for _, f := range r.Fees {
		// Each fee is at most MaxAmountCents and a body holds at most
		// MaxBody bytes, so their sum cannot overflow.
		if f.Fee == nil || *f.Fee != 0 && !ValidAmount(*f.Fee) {
			return apierr.Payload("invalid_fee", "fees[].fee must be a number from 0 to %s with at most two decimals.", Cents(MaxAmountCents).Usd())
		}
		if f.To == nil || f.To.ID == nil || *f.To.ID == "" {
			return apierr.Payload("missing_fee_node", "fees[].to.id is required.")
		}
	}
	return nil
}

// BrokenRule is the first rule of the contract r breaks that the sandbox
// took: a negative process_on is today's (0), and attachments are kept as
// sent.
func (r CreateTxRequest) BrokenRule() BrokenRule {
	if p := r.Extra.ProcessOn; p != nil && *p < 0 {
		return BrokenRule{"extra.process_on is a delta in days, 0 (today) or more",
			apierr.Payload("invalid_process_on", "extra.process_on must be a day delta from 0 to %d.", maxProcessOnDays)}
	}
	if o := r.Extra.Other; o != nil {
		for _, a := range o.Attachments {
			if _, err := base64.StdEncoding.DecodeString(a); err != nil || a == "" {
				return BrokenRule{"extra.other.attachments[] are padded base64",
					apierr.Payload("invalid_attachment", "extra.other.attachments[] must be padded base64.")}
			}
		}
	}
	return BrokenRule{}
}

// BatchRequest is the body of POST .../batch-trans.
type BatchRequest struct {
	Transactions []CreateTxRequest `json:"transactions"`
}

// CommentRequest is the body of PATCH .../trans/{trans_id}.
type CommentRequest struct {
	Comment *string `json:"comment"`
}

// maxNoteLength bounds extra.note, in characters. The spec's 80 is the
// bank statement's addendum; the sandbox took longer notes (docs/limits.md).
const maxNoteLength = 1000

// maxProcessOnDays bounds extra.process_on: the fake's schedule goes no
// further.
const maxProcessOnDays = 365

// ruleToType is the contract's rule a transfer's to.type keeps: it names the
// receiving node's type (or an older name of it).
const ruleToType = "to.type is the receiving node's type"

// MaxBatch is the largest batch POST .../batch-trans accepts.
const MaxBatch = 500

// batchItemError is the refusal of one item of a batch.
type batchItemError struct {
	Index     int       `json:"index"`
	Error     errorBody `json:"error"`
	ErrorCode string    `json:"error_code"`
	HTTPCode  string    `json:"http_code"`
}

// batchResponse answers a batch: every created transaction and every
// refused item, by its index in the request. It is a transactions list
// wrapper (SynapsePy reads its page, page_count and limit) of one page that
// holds the whole batch: page 1 of 1, limit MaxBatch.
type batchResponse struct {
	ErrorCode  string           `json:"error_code"`
	Errors     []batchItemError `json:"errors"`
	HTTPCode   string           `json:"http_code"`
	Limit      int              `json:"limit"`
	Page       int              `json:"page"`
	PageCount  int              `json:"page_count"`
	Success    bool             `json:"success"`
	Trans      []TxView         `json:"trans"`
	TransCount int              `json:"trans_count"`
}

// MaxComments is documented at synapsefake.MaxComments.
const MaxComments = 100
