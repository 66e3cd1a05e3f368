module github.com/synapsefake/synapsefake/compat/go

go 1.26.0

// SynapseGo is not on the module proxy: compat/go/run.sh extracts
// ../shared/sdks/SynapseGo.tar.gz to a temporary directory and builds with a
// copy of this file whose replace points there (-modfile). Its dependencies
// come from the module proxy, checked against go.sum. The fake itself is
// this repository (recipe_test.go runs it in-process).
replace github.com/SynapseFI/SynapseGo => ./SynapseGo

replace github.com/synapsefake/synapsefake => ../..

require (
	github.com/SynapseFI/SynapseGo v0.0.0-00010101000000-000000000000
	github.com/parnurzeal/gorequest v0.2.15
	github.com/synapsefake/synapsefake v0.0.0-00010101000000-000000000000
)

require (
	github.com/benbjohnson/clock v1.3.5 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/mitchellh/mapstructure v1.1.2 // indirect
	github.com/moul/http2curl v1.0.0 // indirect
	github.com/pkg/errors v0.8.1 // indirect
	golang.org/x/net v0.0.0-20190311031020-56fb01167e7d // indirect
)
