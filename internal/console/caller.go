package console

import (
	"net/http"

	"github.com/synapsefake/synapsefake/internal/phrase"
)

// callerOf is who sends the control request r, by its
// X-Synapsefake-Client header: the hints of the answer (a failed wait's,
// the journal's reasons) are phrased in that client's calls
// (phrase.Caller.Phrase); a request that names none is answered in the
// control API's routes.
func callerOf(r *http.Request) phrase.Caller {
	return phrase.ParseCaller(r.Header.Get(phrase.ClientHeader))
}
