// The fast decoder, the wire's side: the interface a request body that decodes itself meets.

package api

// fastDecoder is a request body that decodes its usual shape itself,
// without reflection: decodeFast reports false, and leaves the body as it
// was, for anything it does not read exactly as encoding/json would (an
// unknown key, a key in another letter case, an escape, null,
// a value of another type, trailing data...), and encoding/json decodes
// the body instead. TestDecodeFastIsEncodingJSON holds each to that.
type fastDecoder interface {
	DecodeFast(data []byte) bool
}
