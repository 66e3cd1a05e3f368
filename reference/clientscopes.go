package reference

// Client-level scopes a public key (GET /v3.1/client?issue_public_key=YES) may carry,
// besides the user-level scopes of Scopes.
var clientScopes = []string{
	"OAUTH|POST", "USERS|POST", "USERS|GET", "USER|GET", "USER|PATCH",
	"SUBSCRIPTIONS|GET", "SUBSCRIPTIONS|POST", "SUBSCRIPTION|GET", "SUBSCRIPTION|PATCH",
	"CLIENT|REPORTS", "CLIENT|CONTROLS",
}

// ClientScopes returns the client-level scopes in the order the SDKs list them; it is
// the default scope of a public key. The slice is fresh on every call.
func ClientScopes() []string {
	return append([]string(nil), clientScopes...)
}

// IsPublicKeyScope reports whether s may be granted to a public key: a client-level or
// a user-level scope.
func IsPublicKeyScope(s string) bool {
	return contains(clientScopes, s) || contains(userScopes, s)
}
