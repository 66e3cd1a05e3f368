#!/usr/bin/env bash
# Issue 39 step 4a: declarations used from a lower layer's files move down
# to that layer (and a few console ones move up out of bank files), still
# one package. Each mv line is one mvdecl move (whole const/var/type
# blocks; methods named Recv.Method). Run from the repository's root:
#
#	bash notes/tools/step4a.sh 1   # before the first step 4a commit
#	bash notes/tools/step4a.sh 3   # before the third (api_state.go)
#
# replayable after a rebase. The hand edits of step 4a (the publisher
# interface, worldTx's arguments, the layer configs, hooks.restore's
# arguments) are in its commits; replay them with git cherry-pick -n or
# by hand after each part.
set -euo pipefail
tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
go build -o "$tools/mvdecl" notes/tools/mvdecl.go
mv() { "$tools/mvdecl" "$@"; }

part1() {

# The contract rules the store's validations take (plan §3.4's Enforcer).
mv -from contractrules.go -to bank_contractrules.go brokenRule enforcer enforcer.enforce
# Request decoding and limits the bank's request types use.
mv -from handlers.go -to bank_handlers.go allUserScopes isUserScope unmarshalObject maxJSONDepth checkDepth deeperThan jsonTypeName listMeta
mv -from handlers_kyc.go -to bank_handlers_kyc.go regGGDocType
mv -from handlers_nodes.go -to bank_handlers_nodes.go nodesList cardAllowed infoAlternatives infoString
mv -from handlers_ship.go -to bank_handlers_ship.go maxStoredLabel
mv -from handlers_subnets.go -to bank_handlers_subnets.go subnetAllowed
# An exported const block prints in go doc in file order: the wallet push
# types go to a new bank file, digitalwallet.go (chaos.go < digitalwallet.go
# < money.go, as handlers_subnets.go was), the updaters to the end of
# users.go (the last bank file before webhooks.go).
mv -from handlers_subnets.go -to digitalwallet.go PushApple
sed -i 's/"banklogin barcode cardlife cards clock dishonor/"banklogin barcode cardlife cards clock digitalwallet dishonor/' notes/tools/xref.go notes/tools/classify.go
mv -from handlers_transactions.go -to bank_handlers_transactions.go maxNoteLength MaxComments maxProcessOnDays ruleToType maxBatch batchItemError batchResponse
mv -from handlers_users.go -to bank_handlers_users.go usersList deleteDocument legacyAttachmentType userPermissions
mv -from fastdecode.go -to bank_fastdecode.go jsonScan jsonScan.space jsonScan.next jsonScan.str jsonScan.number jsonScan.float jsonScan.int jsonScan.bool jsonScan.object jsonScan.end jsonScan.strPtr createTxParts
mv -from errors.go -to bank_errors.go errorEnvelope errorBody envelopeOf
# errors.go is left with its file comment, which goes along.
python3 - <<'PY'
import os
rest = open("errors.go").read().split("\n", 1)[1].strip("\n")
head, body = open("bank_errors.go").read().split("\n", 1)
open("bank_errors.go", "w").write(head + "\n\n" + rest + "\n" + body)
os.remove("errors.go")
PY
mv -from diagnose.go -to bank_diagnose.go hintUserHeader
mv -from api_filter.go -to filter.go pageOf
mv -from api_idempotency.go -to idempotency.go idemKey
# The subscriptions and deliveries the store holds.
mv -from subscriptions.go -to bank_subscriptions.go subscriptionRecord subscriptionView Subscription subscriptionRecord.public validWebhookURL schemelessWebhookURL validSubscriptionScopes
mv -from webhooks.go -to users.go UpdatedBySelf
mv -from webhooks.go -to bank_webhooks.go delivery hookTarget attemptRecord webhookBody
# The dashboard's views the store's ui* reads build.
mv -from ui.go -to bank_ui.go uiUser uiNode uiStatement uiTx uiStep uiTxFilter uiScanLimit all
mv -from ui_detail.go -to bank_ui_detail.go indentJSON uiDetailTxs uiDetail uiSub
# The state encoding's helpers over the store's fields.
mv -from state.go -to bank_state.go timeType appendJSON writeKey jsonNull
# Console code that sat in bank files.
mv -from cardlife.go -to console_cardlife.go controlAmount
mv -from returns.go -to console_returns.go controlRules
mv -from ui.go -to bank_ui.go uiHook uiDelivery uiAttempt uiOutcome uiFailed uiOutcome.OK uiOutcome.NotSent
mv -from ui_detail.go -to bank_ui_detail.go uiHookRow
mv -from webhooks.go -to bank_webhooks.go Attempt
# What the wire's webhook health (api_ui.go) works out, which the console shows.
mv -from ui.go -to api_ui.go outcomeOf uiAttemptOf
mv -from ui_detail.go -to api_ui.go uiSubWindow
}

part3() {
# The webhook side of the state document, which the wire's hooks.snapshot
# and hooks.restore (api_state.go) write and read.
mv -from state.go -to api_state.go stateEvent stateObject stateDelivery stateAttempt stateLogEntry stateRetry stateDeliveryRef
}

case "${1:-}" in
1) part1 ;;
3) part3 ;;
*)
	echo 'usage: step4a.sh 1|3' >&2
	exit 2
	;;
esac
goimports -w $(git status --short -- '*.go' | awk '$1 != "D" {print $NF}')
