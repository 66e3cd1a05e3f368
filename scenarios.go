package synapsefake

import (
	"github.com/synapsefake/synapsefake/internal/apierr"
	"github.com/synapsefake/synapsefake/reference"
)

// The scenario helpers move a transaction as the real service would, through
// the same store operation the HTTP handlers and the clock use: timeline
// entries are dated by the fake's clock and the same events are emitted.
// Each returns an error when the move is not legal, and then changes nothing.

// validReturnCode refuses a code that is not an R, IR or WR return code.
func validReturnCode(code string) error {
	if !reference.IsReturnCode(code) {
		return apierr.Payload("invalid_return_code", "Unknown return code %q.", code)
	}
	return nil
}
