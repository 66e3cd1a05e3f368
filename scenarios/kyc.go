package scenarios

import (
	"net/http"
	"testing"
	"time"

	"github.com/synapsefake/synapsefake"
)

// KYC test values of the sandbox (docs/fidelity.md, "KYC"): an SSN ending
// 2222 passes and one ending 1111 fails; an ID image of
// data:image/invalid;base64,SUQs== fails, any other passes.
const (
	validSSN     = "111-11-2222"
	invalidSSN   = "111-11-1111"
	validImage   = "data:image/png;base64,SUQs=="
	invalidImage = "data:image/invalid;base64,SUQs=="
)

// KYCOutcomes returns the hard cases of onboarding, each on a user of its
// own that sends its documents with PATCH /users/{user_id} as an app does:
// verified (SEND-AND-RECEIVE), the SSN refused, the ID refused, the ID in
// review, verified after a day in review, social documents only, and
// locked by compliance after its verification. Want's Permission is what
// GET /users/{user_id} answers afterwards (Result.Response). The slice is
// fresh on every call.
func KYCOutcomes() []Scenario {
	return []Scenario{
		kycScenario("KYC verified: SSN and ID valid", validSSN, validImage, nil, synapsefake.PermissionSendAndReceive),
		kycScenario("KYC: the SSN refused", invalidSSN, validImage, nil, synapsefake.PermissionUnverified),
		kycScenario("KYC: the ID refused", validSSN, invalidImage, nil, synapsefake.PermissionReceive),
		idInReview("KYC: the ID in review", nil, synapsefake.PermissionReceive),
		idInReview("KYC: verified after a day in review", func(tb testing.TB, fake *synapsefake.Server, userID, govtID string) {
			fake.Advance(24 * time.Hour)
			must(tb, "ReviewDocument", fake.ReviewDocument(userID, govtID, "VALID"))
		}, synapsefake.PermissionSendAndReceive),
		kycScenario("KYC: social documents only", "", "", nil, synapsefake.PermissionUnverified),
		kycScenario("KYC: locked by compliance after its verification", validSSN, validImage, func(tb testing.TB, fake *synapsefake.Server, userID, _ string) {
			must(tb, "SetPermission", fake.SetPermission(userID, synapsefake.PermissionLocked))
		}, synapsefake.PermissionLocked),
	}
}

// idInReview is a KYC outcome of a user seeded with a valid SSN and an ID
// held in review (a seeded status is kept until a review changes it);
// then, when set, acts on the user and its ID's sub-document.
func idInReview(name string, then func(tb testing.TB, fake *synapsefake.Server, userID, govtID string), want synapsefake.Permission) Scenario {
	sc := kycScenario(name, "", "", nil, want)
	sc.Apply = func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
		tb.Helper()
		u := fake.MustAddUser(tb, synapsefake.UserSeed{Email: "kyc@example.com", Fingerprint: env.Fingerprint, Documents: []synapsefake.SubDocumentSeed{
			{Kind: synapsefake.KindVirtual, Type: "SSN", Value: validSSN, Status: "VALID"},
			{Kind: synapsefake.KindPhysical, Type: "GOVT_ID", Value: validImage, Status: "REVIEWING"}}})
		if then != nil {
			then(tb, fake, u.ID, govtIDOf(fake, u.ID))
		}
		return kycResult(tb, fake, env, u.ID)
	}
	return sc
}

// govtIDOf is the id of the user's GOVT_ID sub-document, "" for none.
func govtIDOf(fake *synapsefake.Server, userID string) string {
	got, _ := fake.User(userID)
	for _, d := range got.Documents {
		for _, sd := range d.SubDocuments {
			if sd.Type == "GOVT_ID" {
				return sd.ID
			}
		}
	}
	return ""
}

// kycResult is what a KYC outcome leaves for the app: the user, a key,
// and GET /users/{user_id}'s answer.
func kycResult(tb testing.TB, fake *synapsefake.Server, env Env, userID string) Result {
	tb.Helper()
	kycEnv := Env{Gateway: env.Gateway, UserID: userID, Fingerprint: env.Fingerprint}
	return Result{UserID: userID, Fingerprint: env.Fingerprint, OAuthKey: fake.OAuthKey(userID, env.Fingerprint),
		Response: send(tb, fake, "GET", "/users/"+userID, userHeader(kycEnv, "", env.Fingerprint), nil)}
}

// kycScenario is a KYC outcome: a user sends a base document with its
// email, phone number and IP, and an SSN and an ID when given, with the
// fake's reviews on (WithManualKYCReview off); then, when set, then acts
// on the user and its ID's sub-document.
func kycScenario(name, ssn, image string, then func(tb testing.TB, fake *synapsefake.Server, userID, govtID string), want synapsefake.Permission) Scenario {
	return Scenario{
		Name: name,
		Apply: func(tb testing.TB, fake *synapsefake.Server, env Env) Result {
			tb.Helper()
			u := fake.MustAddUser(tb, synapsefake.UserSeed{Email: "kyc@example.com", Fingerprint: env.Fingerprint})
			doc := map[string]any{"email": "kyc@example.com", "phone_number": "901.111.1111", "ip": UserIP, "name": "Kay Whyce"}
			if ssn != "" {
				doc["virtual_docs"] = []any{map[string]any{"document_type": "SSN", "document_value": ssn}}
			}
			if image != "" {
				doc["physical_docs"] = []any{map[string]any{"document_type": "GOVT_ID", "document_value": image}}
			}
			key := fake.OAuthKey(u.ID, env.Fingerprint)
			kycEnv := Env{Gateway: env.Gateway, UserID: u.ID, Fingerprint: env.Fingerprint}
			r := send(tb, fake, "PATCH", "/users/"+u.ID, userHeader(kycEnv, key, env.Fingerprint), map[string]any{"documents": []any{doc}})
			mustStatus(tb, "PATCH /users/{user_id} with the documents", r, http.StatusOK)
			if then != nil {
				then(tb, fake, u.ID, govtIDOf(fake, u.ID))
			}
			return kycResult(tb, fake, env, u.ID)
		},
		Want: Outcome{HTTPStatus: http.StatusOK, Success: true, Permission: string(want)},
		Verify: func(tb testing.TB, fake *synapsefake.Server, _ Env, res Result) {
			tb.Helper()
			fake.CheckPermission(tb, res.UserID, want)
		},
	}
}
