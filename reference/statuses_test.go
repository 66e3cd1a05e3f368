package reference_test

import (
	"reflect"
	"testing"

	"github.com/synapsefake/synapsefake/reference"
)

func TestTransactionStatuses(t *testing.T) {
	want := []reference.TransactionStatus{
		{Status: "QUEUED-BY-SYNAPSE", ID: "-1", Comment: "queued by the service operator"},
		{Status: "QUEUED-BY-RECEIVER", ID: "0", Comment: "queued by the client"},
		{Status: "CREATED", ID: "1", Comment: "created"},
		{Status: "PROCESSING-DEBIT", ID: "2", Comment: "processing the debit"},
		{Status: "PROCESSING-CREDIT", ID: "3", Comment: "processing the credit"},
		{Status: "SETTLED", ID: "4", Comment: "settled"},
		{Status: "CANCELED", ID: "5", Comment: "canceled"},
		{Status: "RETURNED", ID: "6", Comment: "returned"},
	}
	got := reference.TransactionStatuses()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("TransactionStatuses() =\n%+v\nwant\n%+v", got, want)
	}
	got[0].ID = "CHANGED"
	if again := reference.TransactionStatuses(); !reflect.DeepEqual(again, want) {
		t.Errorf("TransactionStatuses() after mutating a copy = %+v", again)
	}
}
