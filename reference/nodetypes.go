package reference

import (
	"slices"
	"strings"
)

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

// AllAllowedNodeTypes returns the node types by type. The slice is fresh on every call.
func AllAllowedNodeTypes() AllowedNodeTypes {
	out := make([]NodeTypeInfo, len(nodeTypes))
	for i, nt := range nodeTypes {
		out[i] = NodeTypeInfo{CommonName: nt.CommonName, Type: nt.Type}
	}
	slices.SortFunc(out, func(a, b NodeTypeInfo) int { return strings.Compare(a.Type, b.Type) })
	return AllowedNodeTypes{NodeTypes: out}
}
