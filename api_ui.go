package synapsefake

// outcome is what the stored attempt came to.
func (a attemptRecord) outcome() uiOutcome {
	return outcomeOf(int(a.code), a.chaos&chaosBadSignature != 0, a.text)
}
