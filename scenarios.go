package synapsefake

// The scenario helpers move a transaction as the real service would, through
// the same store operation the HTTP handlers and the clock use: timeline
// entries are dated by the fake's clock and the same events are emitted.
// Each returns an error when the move is not legal, and then changes nothing.
