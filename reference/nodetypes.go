package reference

// NodeTypeInfo is one node type a platform may create: an entry of GET
// /v3.1/nodes/types.
type NodeTypeInfo struct {
	CommonName string `json:"common_name"`
	Type       string `json:"type"`
}

// AllowedNodeTypes is the object GET /v3.1/nodes/types answers with.
type AllowedNodeTypes struct {
	NodeTypes []NodeTypeInfo `json:"node_types"`
}

// The type values are written out rather than taken from the Node constants, so that
// this table names every type the SDKs' samples create, whether or not the fake has a
// constant for it.
var allowedNodeTypes = []NodeTypeInfo{
	{"ACH Account", "ACH-US"},
	{"Card", "CARD-US"},
	{"Check", "CHECK-US"},
	{"Cryptocurrency Account", "CRYPTO-US"},
	{"Custody Account", "CUSTODY-US"},
	{"Deposit Account", "DEPOSIT-US"},
	{"External Account", "EXTERNAL-US"},
	{"Interest Bearing Deposit Account", "IB-DEPOSIT-US"},
	{"Interest Bearing Subaccount", "IB-SUBACCOUNT-US"},
	{"Interchange Deposit Account", "IC-DEPOSIT-US"},
	{"Debit Card (Interchange)", "INTERCHANGE-US"},
	{"IOU (Ledger)", "IOU"},
	{"Subaccount", "SUBACCOUNT-US"},
	{"International Wire", "WIRE-INT"},
	{"Domestic Wire", "WIRE-US"},
}

// AllAllowedNodeTypes returns the node types by type. The slice is fresh on every call.
func AllAllowedNodeTypes() AllowedNodeTypes {
	return AllowedNodeTypes{NodeTypes: append([]NodeTypeInfo(nil), allowedNodeTypes...)}
}
