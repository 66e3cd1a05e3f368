module github.com/synapsefake/synapsefake

go 1.26.0

require (
	github.com/benbjohnson/clock v1.3.5 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
