module github.com/synapsefake/synapsefake/compat/go

go 1.26.0

replace github.com/SynapseFI/SynapseGo => ./SynapseGo

require (
	github.com/SynapseFI/SynapseGo v0.0.0-00010101000000-000000000000
	github.com/parnurzeal/gorequest v0.2.15
)

require (
	github.com/mitchellh/mapstructure v1.1.2 // indirect
	github.com/moul/http2curl v1.0.0 // indirect
	github.com/pkg/errors v0.8.1 // indirect
	golang.org/x/net v0.0.0-20190311031020-56fb01167e7d // indirect
)
