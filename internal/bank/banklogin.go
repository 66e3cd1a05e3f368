package bank

import (
	"fmt"
	"strings"
	"time"

	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// ACH-US by bank login: POST /users/{user_id}/nodes with info.bank_id,
// bank_pw and bank_name links the accounts behind an online-banking login.
// The sandbox's documented credentials choose each path:
//
//	bank_id            bank_pw            MFA                     accounts
//	synapse_good       test1234, _one     question, test_answer   CHECKING, SAVINGS
//	synapse_good       test1234_checking  question, test_answer   3 CHECKING
//	synapse_good       test1234_savings   question, test_answer   3 SAVINGS
//	synapse_good       test1234_random    question, test_answer   CHECKING, SAVINGS, CHECKING
//	synapse_nomfa      test1234           none                    CHECKING, SAVINGS
//	synapse_code_mfa   test1234           code, 123456            CHECKING, SAVINGS
//	synapse_no_accounts           any     402 / "460"
//	synapse_bank_request          any     402 / "500"
//	synapse_maintenance           any     503 / "503"
//
// Any other login is 400 / "200". An MFA step answers 202 / "10" with
// mfa{access_token, message, type}; the answer "again" asks once more
// with a new token, the right answer links the accounts, a wrong one is
// 409 / "400" and leaves the question open. An unanswered question is
// forgotten bankLoginLifetime after it was asked.

// Sandbox answers to the bank's questions.
const (
	bankMFAAnswer = "test_answer"
	bankMFACode   = "123456"
	bankMFAAgain  = "again"
)

// bankLoginBalance is the balance of every account linked by bank login:
// the sandbox's nodes "always have a balance of $800".
const bankLoginBalance Cents = 800_00

// sandboxLogin is what the sandbox bank does with one login.
type sandboxLogin struct {
	mfa      string   // "", "question" or "code"
	accounts []string // class of each account linked
	fail     *apierr.Error
}

var (
	checkingAndSavings = []string{"CHECKING", "SAVINGS"}
	sandboxPasswords   = map[string][]string{
		"test1234":          checkingAndSavings,
		"test1234_one":      checkingAndSavings,
		"test1234_checking": {"CHECKING", "CHECKING", "CHECKING"},
		"test1234_savings":  {"SAVINGS", "SAVINGS", "SAVINGS"},
		"test1234_random":   {"CHECKING", "SAVINGS", "CHECKING"},
	}
	sandboxFailures = map[string]*apierr.Error{
		"synapse_no_accounts": {Status: 402, ErrorCode: reference.ErrRequestFailed,
			Code: "no_ach_accounts", Message: "No ACH capable account found."},
		"synapse_bank_request": {Status: 402, ErrorCode: reference.ErrServer,
			Code: "bank_requests_attention", Message: "The bank is requesting the user's attention."},
		"synapse_maintenance": {Status: 503, ErrorCode: reference.ErrUnavailable,
			Code: "bank_unavailable", Message: "Service unavailable due to bank maintenance."},
	}
	errBankCredentials = apierr.Payload("invalid_bank_credentials", "Invalid bank login credentials.")
)

// lookupSandboxLogin is the sandbox bank's answer to a username and password.
func lookupSandboxLogin(username, password string) sandboxLogin {
	if e, ok := sandboxFailures[username]; ok {
		return sandboxLogin{fail: e}
	}
	switch username {
	case "synapse_good":
		if accounts, ok := sandboxPasswords[password]; ok {
			return sandboxLogin{mfa: "question", accounts: accounts}
		}
	case "synapse_nomfa":
		if password == "test1234" {
			return sandboxLogin{accounts: checkingAndSavings}
		}
	case "synapse_code_mfa":
		if password == "test1234" {
			return sandboxLogin{mfa: "code", accounts: checkingAndSavings}
		}
	}
	return sandboxLogin{fail: errBankCredentials}
}

// bankLoginLifetime is how long the fake's clock keeps a bank's question
// open: past it the access_token is unknown, as a spent one is, and the
// clock sweeps the login away.
const bankLoginLifetime = 15 * time.Minute

// bankLoginRecord is a login waiting for the answer to its MFA question.
type bankLoginRecord struct {
	userID   string
	bankName string
	login    sandboxLogin
	expires  time.Time // when the question was asked, plus bankLoginLifetime
}

// mfaAnswer is the 202 body of a login the bank asks a question about. It
// has no error key, as recorded: SynapsePy raises on a 2xx body carrying
// one with error_code 10.
type mfaAnswer struct {
	ErrorCode string  `json:"error_code"`
	HTTPCode  string  `json:"http_code"`
	MFA       mfaBody `json:"mfa"`
	Success   bool    `json:"success"`
}

type mfaBody struct {
	AccessToken string `json:"access_token"`
	Message     string `json:"message"`
	Type        string `json:"type"`
}

// BankLoginAnswer is either the nodes linked or the bank's next question.
type BankLoginAnswer struct {
	Nodes []NodeView
	Mfa   *mfaAnswer
}

// bankLogin starts a bank login for user userID.
func (st *Store) bankLogin(now time.Time, userID, username, password, bankName string) (BankLoginAnswer, error) {
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return BankLoginAnswer{}, apierr.NotFound("user")
	}
	login := lookupSandboxLogin(username, password)
	if login.fail != nil {
		return BankLoginAnswer{}, login.fail
	}
	rec := &bankLoginRecord{userID: userID, bankName: bankName, login: login}
	if login.mfa != "" {
		return BankLoginAnswer{Mfa: st.askBank(now, rec)}, nil
	}
	return BankLoginAnswer{Nodes: st.linkBankAccounts(now, u, rec, "")}, nil
}

// answerBankMFA answers the question behind access token token.
func (st *Store) answerBankMFA(now time.Time, userID, token, answer string) (BankLoginAnswer, error) {
	defer st.lock().unlock()
	u := st.users[userID]
	if u == nil {
		return BankLoginAnswer{}, apierr.NotFound("user")
	}
	rec := st.bankLogins[token]
	if rec != nil && !now.Before(rec.expires) {
		delete(st.bankLogins, token)
		rec = nil
	}
	if rec == nil {
		return BankLoginAnswer{}, apierr.Incorrect("invalid_access_token", "Unknown, spent or expired access_token.")
	}
	if rec.userID != userID {
		return BankLoginAnswer{}, apierr.Unauthorized("unauthorized_access_token", "The access_token does not belong to user %s.", userID)
	}
	want := bankMFAAnswer
	if rec.login.mfa == "code" {
		want = bankMFACode
	}
	switch {
	case answer == want:
		delete(st.bankLogins, token)
		return BankLoginAnswer{Nodes: st.linkBankAccounts(now, u, rec, token)}, nil
	case answer == bankMFAAgain && rec.login.mfa == "question":
		delete(st.bankLogins, token)
		return BankLoginAnswer{Mfa: st.askBank(now, rec)}, nil
	}
	return BankLoginAnswer{}, apierr.Incorrect("incorrect_mfa_answer", "Incorrect MFA answer.")
}

// askBank stores rec under a new access token, open for
// bankLoginLifetime from now, and returns the question. Callers hold mu.
func (st *Store) askBank(now time.Time, rec *bankLoginRecord) *mfaAnswer {
	if st.bankLogins == nil {
		st.bankLogins = make(map[string]*bankLoginRecord)
	}
	token := "fake_" + st.secretHex(32)
	rec.expires = now.Add(bankLoginLifetime)
	st.bankLogins[token] = rec
	st.bankLoginExpiry.push(token, rec.expires)
	msg := "I heard you like questions so we put a question in your question?"
	if rec.login.mfa == "code" {
		msg = "Please enter the code sent to your device."
	}
	return &mfaAnswer{ErrorCode: reference.ErrAccepted, HTTPCode: "202", Success: true,
		MFA: mfaBody{AccessToken: token, Message: msg, Type: rec.login.mfa}}
}

// sweepBankLogins forgets the questions left unanswered past their
// lifetime. Callers hold mu.
func (st *Store) sweepBankLogins(now time.Time) {
	for token, ok := st.bankLoginExpiry.popDue(now); ok; token, ok = st.bankLoginExpiry.popDue(now) {
		if rec := st.bankLogins[token]; rec != nil && !now.Before(rec.expires) {
			delete(st.bankLogins, token)
		}
	}
}

// linkBankAccounts makes an ACH-US node, verified and funded, for each
// account behind a login. Callers hold mu.
func (st *Store) linkBankAccounts(now time.Time, u *userRecord, rec *bankLoginRecord, token string) []NodeView {
	views := make([]NodeView, 0, len(rec.login.accounts))
	bank := reference.Bank{Name: strings.ToUpper(rec.bankName), LongName: strings.ToUpper(rec.bankName) + " (SANDBOX)",
		Address: reference.SandboxBank.Address, Logo: reference.SandboxBank.Logo}
	for i, class := range rec.login.accounts {
		account := fmt.Sprintf("%d%04d", 100000+len(st.nodes), 1111*(i+1)%10000)
		nickname := fmt.Sprintf("SynapsePay Test %s Account - %s", strings.ToUpper(class[:1])+strings.ToLower(class[1:]), LastFour(account))
		n := st.newNode(now, u, NodeSeed{Type: reference.NodeACHUS, Nickname: nickname, AccountNum: account,
			RoutingNum: "051000017"}, "PERSONAL", class, nil)
		n.allowed = AllowedCreditAndDebit
		n.microPending = false
		n.timeline = n.timeline[:1:1] // a later append copies: entries are never written
		n.balance = bankLoginBalance
		n.bank = bank
		var at any
		if token != "" {
			at = token
		}
		n.sysOther = map[string]any{"access_token": at, "updated_on": Ms(now)}
		views = append(views, st.emitNode(now, "NODES|POST", n))
	}
	return views
}
