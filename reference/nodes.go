package reference

// Node types, as the wire's node type, to.type and from.type carry them.
const (
	NodeDepositUS     = "DEPOSIT-US"
	NodeInterchangeUS = "INTERCHANGE-US"
	NodeICDepositUS   = "IC-DEPOSIT-US"
	NodeExternalUS    = "EXTERNAL-US"
	NodeACHUS         = "ACH-US"
	NodeSubaccountUS  = "SUBACCOUNT-US"
	NodeWireUS        = "WIRE-US"
)

var nodeTypes = []string{
	NodeDepositUS, NodeInterchangeUS, NodeICDepositUS, NodeExternalUS,
	NodeACHUS, NodeSubaccountUS, NodeWireUS,
}

// NodeTypes returns every node type the fake knows. The slice is fresh on every call.
func NodeTypes() []string {
	return append([]string(nil), nodeTypes...)
}

// IsDepositType reports whether t is a node type that holds a balance the fake limits:
// DEPOSIT-US, IC-DEPOSIT-US or SUBACCOUNT-US.
func IsDepositType(t string) bool {
	switch t {
	case NodeDepositUS, NodeICDepositUS, NodeSubaccountUS:
		return true
	}
	return false
}

// IsExternalType reports whether t is a node type outside the platform whose balance the
// fake does not limit: EXTERNAL-US, ACH-US, WIRE-US or INTERCHANGE-US.
func IsExternalType(t string) bool {
	switch t {
	case NodeExternalUS, NodeACHUS, NodeWireUS, NodeInterchangeUS:
		return true
	}
	return false
}
