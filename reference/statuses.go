package reference

// TransactionStatus is one row of the spec's transaction status table. ID is the wire's
// status_id, a JSON string ("-1" to "6").
type TransactionStatus struct {
	Status  string `json:"status"`
	ID      string `json:"status_id"`
	Comment string `json:"comment"`
}

var transactionStatuses = []TransactionStatus{
	{"QUEUED-BY-SYNAPSE", "-1", "queued by the service operator"},
	{"QUEUED-BY-RECEIVER", "0", "queued by the client"},
	{"CREATED", "1", "created"},
	{"PROCESSING-DEBIT", "2", "processing the debit"},
	{"PROCESSING-CREDIT", "3", "processing the credit"},
	{"SETTLED", "4", "settled"},
	{"CANCELED", "5", "canceled"},
	{"RETURNED", "6", "returned"},
}

// TransactionStatuses returns the spec's transaction statuses in order of status_id.
// The slice is fresh on every call.
func TransactionStatuses() []TransactionStatus {
	return append([]TransactionStatus(nil), transactionStatuses...)
}
