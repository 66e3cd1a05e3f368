package synapsefake

// WithStrictRequests makes the server refuse request bodies with fields
// the service would ignore without a word: unknown keys, misspelt ones
// ("ammount"), and known ones in the wrong place ("currency" at the top of
// a transaction instead of under amount). Such a request is answered
// 400 / "200" unknown_field, naming the field's path and the nearest known
// field, and with NewServer it also fails the test (tb.Errorf). The default
// stays lenient, as the service is. Names match as the service matches
// them, without regard to letter case; a field that takes any object
// (extra.other) takes any keys.
//
// It also enforces the rules of the contract that the sandbox did not
// (a login email without @, a to.type that is not the node's, an ACH-US
// account number of the wrong length...: docs/fidelity.md lists them):
// each is taken by default and, under WithStrictRequests, refused as the
// contract says, the test failing with the rule's name.
func WithStrictRequests() Option {
	return func(cfg *config) { cfg.Strict = true }
}
