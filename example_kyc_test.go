package synapsefake_test

import (
	"fmt"
	"time"

	"github.com/synapsefake/synapsefake"
)

// KYC in one line each: documents go under review, a review raises the
// permission to what they allow (a valid SSN alone: RECEIVE; with a valid
// ID: SEND-AND-RECEIVE), and a refused one never lowers it.
func ExampleServer_ReviewDocument() {
	fake := synapsefake.New(synapsefake.WithManualKYCReview())
	user, _ := fake.AddUser(synapsefake.UserSeed{Documents: []synapsefake.SubDocumentSeed{
		{Kind: synapsefake.KindVirtual, Type: "SSN", Value: "111-11-2222"},
		{Kind: synapsefake.KindPhysical, Type: "GOVT_ID", Value: "data:image/png;base64,SUQs=="},
	}})
	fmt.Println(user.Permission, user.Documents[0].SubDocuments[1].Status)

	ssn := user.Documents[0].SubDocuments[1].ID
	_ = fake.ReviewDocument(user.ID, ssn, "VALID")
	u, _ := fake.User(user.ID)
	fmt.Println(u.Permission, u.Documents[0].PermissionScope)

	_ = fake.ReviewDocuments(user.ID, "VALID") // the ID too
	u, _ = fake.User(user.ID)
	fmt.Println(u.Permission)

	fmt.Println(fake.ReviewDocument(user.ID, ssn, "APPROVED"))
	// Output:
	// UNVERIFIED SUBMITTED|REVIEWING
	// RECEIVE RECEIVE|1000|DAILY
	// SEND-AND-RECEIVE
	// synapsefake: invalid_status (error_code 200, http 400): status "APPROVED" is not a sub-document status: want VALID, INVALID, BLACKLIST, REVIEWING, MFA_PENDING or SUBMITTED (or the wire's SUBMITTED|VALID...).
}

// With WithKYCReview the sandbox's review takes time on the fake's clock;
// its outcome follows the sandbox's test values (an SSN ending 1111 is
// refused).
func ExampleWithKYCReview() {
	fake := synapsefake.New(synapsefake.WithKYCReview(20 * time.Second))
	user, _ := fake.AddUser(synapsefake.UserSeed{Documents: []synapsefake.SubDocumentSeed{
		{Kind: synapsefake.KindVirtual, Type: "SSN", Value: "111-11-1111"},
	}})
	fake.Advance(20 * time.Second)
	u, _ := fake.User(user.ID)
	fmt.Println(u.Documents[0].SubDocuments[0].Status, u.Permission)
	// Output:
	// SUBMITTED|INVALID UNVERIFIED
}
