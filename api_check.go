package synapsefake

func (w Webhook) checked() checkedWebhook {
	return checkedWebhook{w.Function, w.ObjectType, w.ObjectID, w.Status, w.Code}
}

// checkedWebhook is the part of a Webhook the matchers read, as a failed
// CheckWebhook shows it.
type checkedWebhook struct {
	Function   string
	ObjectType string
	ObjectID   string
	Status     string
	Code       string
}

// summary is the webhook on one line, without its deliveries.
func (c checkedWebhook) summary() string {
	s := c.Function + " " + c.ObjectType + "_" + c.ObjectID
	if c.Status != "" {
		s += " " + c.Status
	}
	if c.Code != "" {
		s += " (" + c.Code + ")"
	}
	return s
}
