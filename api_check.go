package synapsefake

func (w Webhook) checked() checkedWebhook {
	return checkedWebhook{w.Function, w.ObjectType, w.ObjectID, w.Status, w.Code}
}
