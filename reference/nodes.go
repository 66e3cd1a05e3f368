package reference

import (
	"maps"
	"slices"
)

// Node types, as the wire's node type, to.type and from.type carry them.
const (
	NodeDepositUS      = "DEPOSIT-US"
	NodeInterchangeUS  = "INTERCHANGE-US"
	NodeICDepositUS    = "IC-DEPOSIT-US"
	NodeExternalUS     = "EXTERNAL-US"
	NodeACHUS          = "ACH-US"
	NodeSubaccountUS   = "SUBACCOUNT-US"
	NodeWireUS         = "WIRE-US"
	NodeCustodyUS      = "CUSTODY-US"
	NodeCardUS         = "CARD-US"
	NodeIBDepositUS    = "IB-DEPOSIT-US"
	NodeIBSubaccountUS = "IB-SUBACCOUNT-US"
	NodeWireInt        = "WIRE-INT"
	NodeCheckUS        = "CHECK-US"
	NodeIOU            = "IOU"
	NodeCryptoUS       = "CRYPTO-US"
)

// Older names of node types, which the API still took in the years its
// Python and Ruby clients' integration suites were written: each behaves as
// the type BaseNodeType gives, and a node made under one keeps it as its type.
const (
	NodeSynapseUS           = "SYNAPSE-US"
	NodeClearingUS          = "CLEARING-US"
	NodeReserveUS           = "RESERVE-US"
	NodeTriumphSubaccountUS = "TRIUMPH-SUBACCOUNT-US"
	NodeSubcardUS           = "SUBCARD-US"
)

// nodeAliases maps each older name to the type it behaves as. GET
// /nodes/types and NodeTypes do not list them.
var nodeAliases = map[string]string{
	NodeSynapseUS:           NodeDepositUS,
	NodeClearingUS:          NodeDepositUS,
	NodeReserveUS:           NodeDepositUS,
	NodeTriumphSubaccountUS: NodeSubaccountUS,
	NodeSubcardUS:           NodeCardUS,
}

// BaseNodeType returns the type a node of type t behaves as: today's name
// for an older one (SYNAPSE-US is DEPOSIT-US), t itself otherwise.
func BaseNodeType(t string) string {
	if b, ok := nodeAliases[t]; ok {
		return b
	}
	return t
}

// NodeTypeAliases returns the older node type names the fake accepts, sorted.
// The slice is fresh on every call.
func NodeTypeAliases() []string {
	return slices.Sorted(maps.Keys(nodeAliases))
}

// NodeClass groups node types by how money moves through them.
type NodeClass string

// Node classes.
const (
	// ClassDeposit: an account on the platform that holds a balance.
	ClassDeposit NodeClass = "DEPOSIT"
	// ClassExternal: an account elsewhere that can be debited and credited
	// (ACH, a linked debit card).
	ClassExternal NodeClass = "EXTERNAL"
	// ClassPayout: an account elsewhere that can only be paid (wires, checks).
	ClassPayout NodeClass = "PAYOUT"
	// ClassCard: a debit card issued as a node (CARD-US, deprecated by subnets).
	ClassCard NodeClass = "CARD"
	// ClassIOU: a ledger of value owed, in any currency.
	ClassIOU NodeClass = "IOU"
	// ClassCrypto: a crypto wallet.
	ClassCrypto NodeClass = "CRYPTO"
)

// NodeType describes one node type: its class and the info fields
// (dotted paths below info) that creating one requires.
type NodeType struct {
	Type         string
	CommonName   string // as GET /nodes/types names it
	Class        NodeClass
	RequiredInfo []string
}

var payeeAddress = []string{"payee_name", "payee_address.address_street", "payee_address.address_city",
	"payee_address.address_subdivision", "payee_address.address_country_code", "payee_address.address_postal_code"}

// nodeTypes lists every node type with the info its create needs, as the
// official SDKs' samples and the public docs give them. ACH-US lists its
// account-and-routing variant; its bank-login variant needs bank_id,
// bank_pw and bank_name instead.
var nodeTypes = []NodeType{
	{NodeDepositUS, "Deposit Account", ClassDeposit, []string{"nickname"}},
	{NodeInterchangeUS, "Debit Card (Interchange)", ClassExternal, []string{"nickname", "card_number", "exp_date", "document_id"}},
	{NodeICDepositUS, "Interchange Deposit Account", ClassDeposit, []string{"nickname"}},
	{NodeExternalUS, "External Account", ClassExternal, []string{"nickname"}},
	{NodeACHUS, "ACH Account", ClassExternal, []string{"nickname", "account_num", "routing_num"}},
	{NodeSubaccountUS, "Subaccount", ClassDeposit, []string{"nickname"}},
	{NodeWireUS, "Domestic Wire", ClassPayout, []string{"nickname", "account_num", "routing_num", "name_on_account", "address"}},
	{NodeCustodyUS, "Custody Account", ClassDeposit, []string{"nickname"}},
	{NodeCardUS, "Card", ClassCard, []string{"nickname", "document_id"}},
	{NodeIBDepositUS, "Interest Bearing Deposit Account", ClassDeposit, []string{"nickname"}},
	{NodeIBSubaccountUS, "Interest Bearing Subaccount", ClassDeposit, []string{"nickname"}},
	{NodeWireInt, "International Wire", ClassPayout, []string{"nickname", "bank_name", "account_num", "swift", "name_on_account", "address"}},
	{NodeCheckUS, "Check", ClassPayout, append([]string{"nickname"}, payeeAddress...)},
	{NodeIOU, "IOU (Ledger)", ClassIOU, []string{"nickname", "balance.currency"}},
	{NodeCryptoUS, "Cryptocurrency Account", ClassCrypto, []string{"nickname"}},
}

// transferPairs are the classes money may move between, sender first.
// Deposit accounts send to and receive from every class; payout accounts
// only receive; IOUs and crypto wallets also trade among themselves.
var transferPairs = map[[2]NodeClass]bool{
	{ClassDeposit, ClassDeposit}:  true,
	{ClassDeposit, ClassExternal}: true,
	{ClassExternal, ClassDeposit}: true,
	{ClassDeposit, ClassPayout}:   true,
	{ClassDeposit, ClassCard}:     true,
	{ClassCard, ClassDeposit}:     true,
	{ClassDeposit, ClassIOU}:      true,
	{ClassIOU, ClassDeposit}:      true,
	{ClassIOU, ClassIOU}:          true,
	{ClassDeposit, ClassCrypto}:   true,
	{ClassCrypto, ClassDeposit}:   true,
	{ClassCrypto, ClassCrypto}:    true,
}

// NodeTypes returns every node type the fake knows. The slice is fresh on every call.
func NodeTypes() []string {
	out := make([]string, len(nodeTypes))
	for i, nt := range nodeTypes {
		out[i] = nt.Type
	}
	return out
}

// LookupNodeType returns the description of node type t. Its RequiredInfo
// is a fresh copy. An older name (NodeTypeAliases) is described as the type
// it behaves as, under its own name.
func LookupNodeType(t string) (NodeType, bool) {
	base := BaseNodeType(t)
	for _, nt := range nodeTypes {
		if nt.Type == base {
			nt.Type = t
			nt.RequiredInfo = slices.Clone(nt.RequiredInfo)
			return nt, true
		}
	}
	return NodeType{}, false
}

// classes maps each node type to its class.
var classes = func() map[string]NodeClass {
	m := make(map[string]NodeClass, len(nodeTypes))
	for _, nt := range nodeTypes {
		m[nt.Type] = nt.Class
	}
	for alias, base := range nodeAliases {
		m[alias] = m[base]
	}
	return m
}()

func classOf(t string) NodeClass { return classes[t] }

// IsNodeType reports whether t is a node type or an older name of one:
// whether LookupNodeType finds it, without copying its description.
func IsNodeType(t string) bool {
	_, ok := classes[t]
	return ok
}

// CanTransfer reports whether a transaction may move money from a node of
// type from to a node of type to.
func CanTransfer(from, to string) bool {
	return transferPairs[[2]NodeClass{classOf(from), classOf(to)}]
}

// IsDepositType reports whether t is a node type that holds a balance the fake limits:
// DEPOSIT-US, IC-DEPOSIT-US, SUBACCOUNT-US, CUSTODY-US, IB-DEPOSIT-US or
// IB-SUBACCOUNT-US.
func IsDepositType(t string) bool {
	return classOf(t) == ClassDeposit
}

// IsExternalType reports whether t is a node type outside the platform whose balance the
// fake does not limit: EXTERNAL-US, ACH-US, INTERCHANGE-US, WIRE-US, WIRE-INT
// or CHECK-US.
func IsExternalType(t string) bool {
	c := classOf(t)
	return c == ClassExternal || c == ClassPayout
}
