package bank

// The three wallet push types. The spec names them only as <PROVIDER>_PUSH
// for a first, second and third provider.
const (
	PushApple   = "APPLE_PUSH"
	PushGoogle  = "GOOGLE_PUSH"
	PushSamsung = "SAMSUNG_PUSH"
)
