package reference

// User-level OAuth scopes, in the order of the spec's scope table. Several are also
// subscription scopes.
const (
	ScopeUserPatch         = "USER|PATCH"
	ScopeUserGet           = "USER|GET"
	ScopeNodesPost         = "NODES|POST"
	ScopeNodesGet          = "NODES|GET"
	ScopeNodeGet           = "NODE|GET"
	ScopeNodePatch         = "NODE|PATCH"
	ScopeNodeDelete        = "NODE|DELETE"
	ScopeTransPost         = "TRANS|POST"
	ScopeTransGet          = "TRANS|GET"
	ScopeTranGet           = "TRAN|GET"
	ScopeTranPatch         = "TRAN|PATCH"
	ScopeTranDelete        = "TRAN|DELETE"
	ScopeSubnetsPost       = "SUBNETS|POST"
	ScopeSubnetsGet        = "SUBNETS|GET"
	ScopeSubnetGet         = "SUBNET|GET"
	ScopeSubnetPatch       = "SUBNET|PATCH"
	ScopeStatementsGet     = "STATEMENTS|GET"
	ScopeStatementGet      = "STATEMENT|GET"
	ScopeStatementsPost    = "STATEMENTS|POST"
	ScopeConversationsPost = "CONVERSATIONS|POST"
	ScopeConversationsGet  = "CONVERSATIONS|GET"
	ScopeConversationGet   = "CONVERSATION|GET"
	ScopeConversationPatch = "CONVERSATION|PATCH"
	ScopeMessagesPost      = "MESSAGES|POST"
	ScopeMessagesGet       = "MESSAGES|GET"
)

// ScopeUsersPost is a subscription-only scope: the event sent when a user is created.
// It is not a user-level OAuth scope.
const ScopeUsersPost = "USERS|POST"

// ScopeTransPostJIT is the subscription scope of transaction decisioning
// (just-in-time, JIT): a subscription holding it is asked to PASS or FAIL
// each card withdrawal before it is decided. It is not one of the eight
// event scopes SubscriptionScopes lists, so a subscription made with the
// default scopes is never asked; it is not a user-level OAuth scope.
const ScopeTransPostJIT = "TRANS|POST|JIT"

var userScopes = []string{
	ScopeUserPatch, ScopeUserGet,
	ScopeNodesPost, ScopeNodesGet, ScopeNodeGet, ScopeNodePatch, ScopeNodeDelete,
	ScopeTransPost, ScopeTransGet, ScopeTranGet, ScopeTranPatch, ScopeTranDelete,
	ScopeSubnetsPost, ScopeSubnetsGet, ScopeSubnetGet, ScopeSubnetPatch,
	ScopeStatementsGet, ScopeStatementGet, ScopeStatementsPost,
	ScopeConversationsPost, ScopeConversationsGet, ScopeConversationGet, ScopeConversationPatch,
	ScopeMessagesPost, ScopeMessagesGet,
}

var subscriptionScopes = []string{
	ScopeUsersPost, ScopeUserPatch,
	ScopeNodesPost, ScopeNodePatch,
	ScopeTransPost, ScopeTranPatch,
	ScopeSubnetsPost, ScopeSubnetPatch,
}

// Scopes returns every user-level OAuth scope in the order of the spec's table. It is the
// default grant when Create OAuth key carries no scope. The slice is fresh on every call.
func Scopes() []string {
	return append([]string(nil), userScopes...)
}

// SubscriptionScopes returns the eight subscription (webhook event) scopes in the spec's
// order. The slice is fresh on every call.
func SubscriptionScopes() []string {
	return append([]string(nil), subscriptionScopes...)
}

// IsScope reports whether s is a user-level OAuth scope. USERS|POST is not one.
func IsScope(s string) bool {
	return contains(userScopes, s)
}

// IsSubscriptionScope reports whether a subscription may hold s: one of the
// eight subscription scopes, or ScopeTransPostJIT.
func IsSubscriptionScope(s string) bool {
	return s == ScopeTransPostJIT || contains(subscriptionScopes, s)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
