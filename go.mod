module github.com/synapsefake/synapsefake

go 1.26.0

require (
	github.com/benbjohnson/clock v1.3.5
	github.com/google/go-cmp v0.7.0
)
