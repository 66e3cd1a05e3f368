package bank

import (
	"fmt"
	"slices"

	"github.com/synapsefake/synapsefake/internal/apierr"
)

// Status is documented at synapsefake.Status.
type Status string

// The transaction statuses of the spec's table.
const (
	StatusQueuedBySynapse  Status = "QUEUED-BY-SYNAPSE"
	StatusQueuedByReceiver Status = "QUEUED-BY-RECEIVER"
	StatusCreated          Status = "CREATED"
	StatusProcessingDebit  Status = "PROCESSING-DEBIT"
	StatusProcessingCredit Status = "PROCESSING-CREDIT"
	StatusSettled          Status = "SETTLED"
	StatusCanceled         Status = "CANCELED"
	StatusReturned         Status = "RETURNED"
)

// statusIDs are the wire status_id of each status, strings as on the wire.
var statusIDs = map[Status]string{
	StatusQueuedBySynapse:  "-1",
	StatusQueuedByReceiver: "0",
	StatusCreated:          "1",
	StatusProcessingDebit:  "2",
	StatusProcessingCredit: "3",
	StatusSettled:          "4",
	StatusCanceled:         "5",
	StatusReturned:         "6",
}

// ID is the status_id of s, "" for an unknown status.
func (s Status) ID() string { return statusIDs[s] }

// Queued reports whether s is one of the two queued statuses.
func (s Status) Queued() bool { return s == StatusQueuedBySynapse || s == StatusQueuedByReceiver }

// transactionMoves lists every legal move of a transaction. Creation always
// lands in CREATED; nothing leaves CANCELED, and RETURNED only by the
// dishonor of the return (move, dishonor.go), which no other move makes.
var transactionMoves = map[Status][]Status{
	StatusCreated:          {StatusProcessingDebit, StatusCanceled, StatusQueuedBySynapse, StatusQueuedByReceiver},
	StatusQueuedBySynapse:  {StatusCreated, StatusCanceled},
	StatusQueuedByReceiver: {StatusCreated, StatusCanceled},
	StatusProcessingDebit:  {StatusProcessingCredit},
	StatusProcessingCredit: {StatusSettled, StatusReturned},
	StatusSettled:          {StatusReturned},
}

// canMove reports whether a transaction may move from one status to another.
func canMove(from, to Status) bool { return slices.Contains(transactionMoves[from], to) }

// holdStatuses are the statuses in which a card authorization holds its
// amount on the card's node, and so may be incremented, partly reversed or
// cleared for another amount. These change the amount, not the status:
// its full reversal is the move to CANCELED and its clearing the walk to
// SETTLED, both in transactionMoves.
var holdStatuses = []Status{StatusCreated}

// holdsAuthorization reports whether a card authorization in status s holds
// its amount.
func holdsAuthorization(s Status) bool { return slices.Contains(holdStatuses, s) }

// processingPath is the order automatic processing and Settle walk.
var processingPath = []Status{StatusCreated, StatusProcessingDebit, StatusProcessingCredit, StatusSettled}

// pathTo returns the legal steps from one status to a target along the
// processing path (ending with target, which may be RETURNED after
// PROCESSING-CREDIT), or an error naming what the transaction must first be.
func pathTo(from, target Status) ([]Status, error) {
	if canMove(from, target) {
		return []Status{target}, nil
	}
	end := target
	if target == StatusReturned {
		end = StatusProcessingCredit
	}
	i, j := slices.Index(processingPath, from), slices.Index(processingPath, end)
	if i < 0 || j < 0 || i >= j && target != StatusReturned || i > j {
		return nil, errIllegalMove(from, target)
	}
	steps := slices.Clone(processingPath[i+1 : j+1])
	if target == StatusReturned {
		steps = append(steps, StatusReturned)
	}
	return steps, nil
}

// errIllegalMove is the refusal of a move the state machine does not allow.
func errIllegalMove(from, to Status) *apierr.Error {
	return apierr.NotAllowed("illegal_status_change",
		"Transaction cannot move from %s to %s (legal next statuses: %v).", from, to, legalNames(from))
}

func legalNames(from Status) string {
	next := transactionMoves[from]
	if len(next) == 0 {
		return "none"
	}
	return fmt.Sprint(next)
}

// SubnetStatus is documented at synapsefake.SubnetStatus.
type SubnetStatus string

// Subnet statuses.
const (
	SubnetInactive   SubnetStatus = "INACTIVE"
	SubnetActive     SubnetStatus = "ACTIVE"
	SubnetTerminated SubnetStatus = "TERMINATED"
)

// subnetStatusCodes are the values of a subnet's status_code.
var subnetStatusCodes = []string{"USER_REQUESTED", "ACCOUNT_CLOSED", "ACCOUNT_LOCKED", "FRAUD_ALERT"}

// subnetMoves lists the legal subnet status changes: a card is activated,
// deactivated and activated again, and anything may be terminated for good.
var subnetMoves = map[SubnetStatus][]SubnetStatus{
	SubnetInactive: {SubnetActive, SubnetTerminated},
	SubnetActive:   {SubnetInactive, SubnetTerminated},
}

// canMoveSubnet reports whether a subnet may change status. Setting the
// status it already has is not a move and is always allowed, except out of
// TERMINATED, which is final.
func canMoveSubnet(from, to SubnetStatus) bool {
	if from == to {
		return from != SubnetTerminated
	}
	return slices.Contains(subnetMoves[from], to)
}
