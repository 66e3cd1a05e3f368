package reference

import "strings"

// Code is a return code with its meaning: a card code (IRxx), an ACH code (Rxx) or a wire
// code (WRxx). The fake writes Code into recent_status.code and Meaning into the note.
type Code struct {
	Code    string `json:"code"`
	Meaning string `json:"meaning"`
}

// codeIndex maps every known IR, R and WR code to its meaning.
var codeIndex = func() map[string]string {
	m := make(map[string]string, len(interchangeCodes)+len(achReturnCodes)+len(wireReturnCodes))
	for _, table := range [][]Code{interchangeCodes, achReturnCodes, wireReturnCodes, {{IRChargeback, "chargeback"}}} {
		for _, c := range table {
			m[c.Code] = c.Meaning
		}
	}
	return m
}()

// InterchangeCodes returns every card return code, IR00 through IR200 (201 entries), in
// order, with the spec's meanings. The slice is fresh on every call.
func InterchangeCodes() []Code {
	return append([]Code(nil), interchangeCodes...)
}

// InterchangeMeaning returns the spec's meaning of a card return code such as "IR51".
// The second result is false when code is not an IR code of the spec (IRChargeback is a
// return code, not one of the spec's card codes).
func InterchangeMeaning(code string) (string, bool) {
	if !strings.HasPrefix(code, "IR") || code == IRChargeback {
		return "", false
	}
	m, ok := codeIndex[code]
	return m, ok
}

// ReturnCodes returns the NACHA ACH return codes R01 to R85 that NACHA defines, in order.
// The slice is fresh on every call.
func ReturnCodes() []Code {
	return append([]Code(nil), achReturnCodes...)
}

// WireReturnCodes returns the wire return codes WR01 to WR10, in order. The service never
// published its WR codes; this list is the fake's choice. The slice is fresh on every call.
func WireReturnCodes() []Code {
	return append([]Code(nil), wireReturnCodes...)
}

// CodeMeaning returns the meaning of any known return code: ACH (R01), card (IR51) or
// wire (WR01). The second result is false for an unknown code. Codes are matched exactly.
func CodeMeaning(code string) (string, bool) {
	m, ok := codeIndex[code]
	return m, ok
}

// IsReturnCode reports whether code is a known ACH (Rxx), card (IRxx) or wire (WRxx)
// return code.
func IsReturnCode(code string) bool {
	_, ok := codeIndex[code]
	return ok
}
