# Checks synapsefake.control (clients/python/synapsefake/control.py, once
# compat/python/synapsefake_control.py), the Python client of the control API,
# against a running synapsefake: every method once as it should work, and
# each method that can be refused once with a refusal (mostly an unknown
# id), which must surface as a ControlError carrying the error envelope.
#
#	PYTHONPATH=clients/python /usr/bin/python3 test_control.py http://127.0.0.1:PORT/v3.1
#
# run.sh starts the server (manual clock) and calls this.
# The client id and secret come from SYNAPSEFAKE_CLIENT_ID and
# SYNAPSEFAKE_CLIENT_SECRET (for the one API call a dispute needs). It ends
# with Control.reset(), so the server is empty again. Prints one line per
# check and closes with "N passed, M failed"; exits 1 when a check failed.

import datetime
import http.server
import json
import os
import sys
import threading
import urllib.request

from synapsefake.control import Control, ControlError

if len(sys.argv) != 2:
    sys.exit("usage: test_control.py http://HOST:PORT/v3.1")


class Recording(Control):
    """A Control that notes which of its methods were called."""

    called = set()

    def __getattribute__(self, name):
        if not name.startswith("_") and callable(getattr(Control, name, None)):
            Recording.called.add(name)
        return super().__getattribute__(name)


ctl = Recording(sys.argv[1])
GATEWAY = f"{os.environ.get('SYNAPSEFAKE_CLIENT_ID')}|{os.environ.get('SYNAPSEFAKE_CLIENT_SECRET')}"
FP = "control-fingerprint"
UNKNOWN = "0123456789abcdef01234567"

passed = failed = 0


def check(name, fn):
    global passed, failed
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - every failure is reported
        failed += 1
        print(f"FAIL - {name}: {type(err).__name__}: {err}", flush=True)
        return
    passed += 1
    print(f"ok   - {name}", flush=True)


def eq(got, want, what):
    if got != want:
        raise AssertionError(f"{what} is {got!r}, want {want!r}")


def want(cond, msg):
    if not cond:
        raise AssertionError(msg)


def refused(fn, status, error_code, code):
    """fn must raise ControlError with this HTTP status, error_code and error.code."""
    try:
        fn()
    except ControlError as err:
        got = (err.status, err.error_code, err.http_code, err.code)
        eq(got, (status, error_code, str(status), code), "(status, error_code, http_code, error.code)")
        want(isinstance(err.message, str) and err.message, f"no message: {err.envelope}")
        eq(err.envelope["success"], False, "envelope success")
        eq(err.envelope["error"]["en"], err.message, "message")
        return err
    raise AssertionError(f"want ControlError {status} / {error_code} {code}, the call succeeded")


def api(method, path, body=None, key=None):
    """One call of the API (/v3.1) as the user, with key or a fresh oauth key
    (the clock moves past a key's lifetime)."""
    key = key or ctl.oauth_key(s["user"], FP)
    req = urllib.request.Request(ctl.origin + "/v3.1" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", "X-SP-GATEWAY": GATEWAY,
                                          "X-SP-USER": f"{key}|{FP}", "X-SP-USER-IP": "127.0.0.1"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())


class Hook(http.server.BaseHTTPRequestHandler):
    """A webhook receiver that takes every delivery."""

    def do_POST(self):  # noqa: N802 - the handler's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.end_headers()

    def do_GET(self):  # noqa: N802 - the handler's name
        # Answers the control token it was sent, for the token check.
        body = json.dumps({"success": True, "token": self.headers.get("X-Fake-Control-Token")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


hooks = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
threading.Thread(target=hooks.serve_forever, daemon=True).start()
HOOK_URL = f"http://127.0.0.1:{hooks.server_address[1]}/hook"

s = {}

# --- the transport and the error ---


def base_urls():
    eq(Control("http://127.0.0.1:1/v3.1/").origin, "http://127.0.0.1:1", "origin of a base URL with /v3.1")
    eq(Control("http://127.0.0.1:1").origin, "http://127.0.0.1:1", "origin of an origin")


check("Control(base_url) takes the API's base URL or the origin", base_urls)


def token():
    origin = HOOK_URL[: -len("/hook")]
    eq(Control(origin, token="s3cret").call("GET", "echo")["token"], "s3cret", "X-Fake-Control-Token sent")
    eq(Control(origin).call("GET", "echo")["token"], None, "X-Fake-Control-Token without a token")


check("Control(base_url, token) sends the token as X-Fake-Control-Token", token)


def error_shape():
    err = refused(lambda: ctl.user(UNKNOWN), 404, "404", "unable_to_locate_user")
    eq((err.method, err.path), ("GET", f"/_fake/users/{UNKNOWN}"), "method, path")
    want("unable_to_locate_user" in str(err) and "404" in str(err), f"str(err) is {err}")


check("a refusal is a ControlError with status, error_code, http_code, code, message, envelope", error_shape)



def transport():
    a = ctl.call("GET", "clock")
    eq((a["success"], type(a["now"])), (True, int), "success, type of now")
    refused(lambda: ctl.call("GET", "nowhere"), 404, "404", "not_found")
    err = refused(lambda: ctl.call("DELETE", "clock"), 405, "410", "method_not_allowed")
    want("takes GET" in err.message, f"message {err.message!r}")


check("call, the transport: any endpoint; an unknown path -> 404 not_found, a wrong method -> 405", transport)

# --- users, nodes, subnets, keys ---


def add_user():
    before = len(ctl.users(limit=1000))
    u = ctl.add_user(email="ada@example.com", legal_names=["Ada Lovelace"], phone_numbers=["901.111.1111"],
                     fingerprint=FP, permission="SEND-AND-RECEIVE")
    eq((u["emails"], u["legal_names"], u["permission"]), (["ada@example.com"], ["Ada Lovelace"], "SEND-AND-RECEIVE"),
       "emails, legal_names, permission")
    want(u["refresh_token"], "a refresh token")
    s["user"] = u["_id"]
    refused(lambda: ctl.add_user(permission="ROYALTY"), 400, "200", "invalid_permission")
    eq(len(ctl.users(limit=1000)), before + 1, "users after one add and one refusal")


check("add_user; an unknown permission -> 400 / \"200\" invalid_permission, nothing added", add_user)


def users():
    second = ctl.add_user(legal_names=["Bob"])["_id"]
    eq([u["_id"] for u in ctl.users()][:2], [second, s["user"]], "the newest first")
    eq(len(ctl.users(limit=1)), 1, "users(limit=1)")
    s["bob"] = second
    refused(lambda: ctl.users(limit=0), 400, "200", "invalid_limit")


check("users(limit), newest first; limit=0 -> 400 invalid_limit", users)


def user():
    eq(ctl.user(s["user"])["legal_names"], ["Ada Lovelace"], "legal_names")
    refused(lambda: ctl.user(UNKNOWN), 404, "404", "unable_to_locate_user")


check("user; an unknown id -> 404 unable_to_locate_user", user)


def add_node():
    n = ctl.add_node(s["user"], nickname="Checking", balance_cents=100_00)
    eq((n["type"], n["nickname"], n["balance_cents"], n["available_cents"], n["user_id"]),
       ("DEPOSIT-US", "Checking", 100_00, 100_00, s["user"]), "type, nickname, balances, user_id")
    s["node"] = n["_id"]
    s["savings"] = ctl.add_node(s["user"], nickname="Savings")["_id"]
    s["ext"] = ctl.add_node(s["bob"], type="EXTERNAL-US", nickname="Merchant")["_id"]
    refused(lambda: ctl.add_node(UNKNOWN, nickname="x"), 404, "404", "unable_to_locate_user")


check("add_node; an unknown user -> 404", add_node)


def user_nodes():
    eq([n["_id"] for n in ctl.user_nodes(s["user"])], [s["node"], s["savings"]], "the user's nodes, oldest first")
    refused(lambda: ctl.user_nodes(UNKNOWN), 404, "404", "unable_to_locate_user")


check("user_nodes; an unknown user -> 404", user_nodes)


def node():
    eq(ctl.node(s["node"])["balance_cents"], 100_00, "balance_cents")
    refused(lambda: ctl.node(UNKNOWN), 404, "404", "unable_to_locate_node")


check("node; an unknown id -> 404 unable_to_locate_node", node)


def fund():
    n = ctl.fund(s["node"], 25_00)
    eq((n["balance_cents"], n["available_cents"]), (125_00, 125_00), "balances after fund")
    eq(ctl.node(s["node"])["balance_cents"], 125_00, "node() after")
    refused(lambda: ctl.fund(UNKNOWN, 1), 404, "404", "unable_to_locate_node")


check("fund -> the node after; an unknown node -> 404", fund)


def add_subnet():
    a = ctl.add_subnet(s["user"], s["node"], nickname="Account")
    eq(a["account_class"], "CHECKING", "account_class")
    want(a["account_num"], "the account number in full")
    c = ctl.add_subnet(s["user"], s["node"], nickname="Card", account_class="CARD", status="ACTIVE")
    eq((c["account_class"], c["status"]), ("CARD", "ACTIVE"), "account_class, status")
    want(len(c["card_number"]) >= 15, f"card_number {c['card_number']!r}")
    s["account"], s["card"] = a["_id"], c["_id"]
    refused(lambda: ctl.add_subnet(s["user"], UNKNOWN), 404, "404", "unable_to_locate_node")


check("add_subnet (an account number and an active card); an unknown node -> 404", add_subnet)


def oauth_key():
    key = ctl.oauth_key(s["user"], FP)
    want(isinstance(key, str) and key, f"key {key!r}")
    got = api("GET", f"/users/{s['user']}/nodes/{s['node']}", key=key)
    eq(got["_id"], s["node"], "the key reads the node")
    refused(lambda: ctl.oauth_key(UNKNOWN, FP), 404, "404", "unable_to_locate_user")


check("oauth_key works on the API; an unknown user -> 404", oauth_key)


def mfa():
    ctl.force_mfa(s["user"])
    pin = ctl.mfa_pin(s["user"])
    want(isinstance(pin, str) and len(pin) == 6, f"pin {pin!r}")
    refused(lambda: ctl.force_mfa(UNKNOWN), 404, "404", "unable_to_locate_user")
    refused(lambda: ctl.mfa_pin(UNKNOWN), 404, "404", "unable_to_locate_user")


check("force_mfa, mfa_pin; each with an unknown user -> 404", mfa)


def set_permission():
    eq(ctl.set_permission(s["bob"], "LOCKED")["permission"], "LOCKED", "permission")
    eq(ctl.user(s["bob"])["permission"], "LOCKED", "user() after")
    ctl.set_permission(s["bob"], "SEND-AND-RECEIVE")
    refused(lambda: ctl.set_permission(UNKNOWN, "LOCKED"), 404, "404", "unable_to_locate_user")


check("set_permission; an unknown user -> 404", set_permission)


def sub_document(user, kind):
    """The user's sub-document of this kind (the control API's view)."""
    subs = [sd for d in user["documents"] for sd in d["sub_documents"] if sd["kind"] == kind]
    eq(len(subs), 1, f"{kind} sub-documents")
    return subs[0]


def kyc_seed():
    u = ctl.add_user(legal_names=["Kim Review"], documents=[
        {"kind": "virtual", "type": "SSN", "value": "2222", "status": "REVIEWING"},
        {"kind": "physical", "type": "GOVT_ID", "value": "data:image/png;base64,SUQ=", "status": "REVIEWING"}])
    eq((u["permission"], len(u["documents"])), ("UNVERIFIED", 1), "permission, base documents")
    eq(u["documents"][0]["permission_scope"], "UNVERIFIED", "permission_scope")
    for kind, typ in (("virtual", "SSN"), ("physical", "GOVT_ID")):
        sd = sub_document(u, kind)
        eq((sd["document_type"], sd["status"], sd["review_at"]), (typ, "SUBMITTED|REVIEWING", None),
           f"{kind}: document_type, status, review_at")
    eq([(h["permission"], h["by"]) for h in u["permission_history"]], [("UNVERIFIED", "created")], "permission_history")
    eq(ctl.user(u["_id"])["documents"], u["documents"], "user() shows the same documents")
    s["kyc"] = u["_id"]
    # Without a status the sandbox's test values decide at once: an SSN ending 1111 is INVALID.
    bad = ctl.add_user(documents=[{"kind": "virtual", "type": "SSN", "value": "1111"}])["_id"]
    eq(sub_document(ctl.user(bad), "virtual")["status"], "SUBMITTED|INVALID", "an SSN ending 1111, reviewed")
    eq(ctl.user(bad)["permission"], "UNVERIFIED", "its permission")
    refused(lambda: ctl.add_user(documents=[{"kind": "virtual", "type": "SSN", "value": "2222", "status": "GREAT"}]),
            400, "200", "invalid_status")


check("add_user(documents=[...]): sub-documents under review (status REVIEWING), or decided by the sandbox's values; "
      "a bad status -> 400 invalid_status", kyc_seed)


def review_document():
    virtual = sub_document(ctl.user(s["kyc"]), "virtual")
    u = ctl.review_document(s["kyc"], virtual["id"], "VALID")
    eq(sub_document(u, "virtual")["status"], "SUBMITTED|VALID", "the virtual sub-document")
    eq(sub_document(u, "physical")["status"], "SUBMITTED|REVIEWING", "the physical one, still in review")
    eq((u["permission"], u["documents"][0]["permission_scope"]), ("RECEIVE", "RECEIVE|1000|DAILY"),
       "permission, permission_scope with only the SSN valid")
    eq([(h["permission"], h["by"]) for h in u["permission_history"]],
       [("UNVERIFIED", "created"), ("RECEIVE", "documents")], "permission_history")
    before = ctl.user(s["kyc"])
    err = refused(lambda: ctl.review_document(s["kyc"], virtual["id"], "GREAT"), 400, "200", "invalid_status")
    want("GREAT" in err.message, f"message {err.message!r}")
    refused(lambda: ctl.review_document(s["kyc"], UNKNOWN, "VALID"), 404, "404", "unable_to_locate_document")
    refused(lambda: ctl.review_document(UNKNOWN, virtual["id"], "VALID"), 404, "404", "unable_to_locate_user")
    refused(lambda: ctl.call("POST", f"users/{s['kyc']}/documents/{virtual['id']}/review", {}),
            400, "200", "missing_status")
    eq(ctl.user(s["kyc"]), before, "the user after the refusals")


check("review_document VALID (the SSN): RECEIVE; a bad status -> 400 / \"200\" invalid_status, an unknown document "
      "-> 404 unable_to_locate_document, nothing changed", review_document)


def review_documents():
    before = ctl.user(s["kyc"])
    refused(lambda: ctl.review_documents(s["kyc"], "nope"), 400, "200", "invalid_status")
    refused(lambda: ctl.review_documents(UNKNOWN, "VALID"), 404, "404", "unable_to_locate_user")
    eq(ctl.user(s["kyc"]), before, "the user after the refusals")
    u = ctl.review_documents(s["kyc"], "SUBMITTED|VALID")  # the wire's form works too
    eq([sd["status"] for d in u["documents"] for sd in d["sub_documents"]], ["SUBMITTED|VALID"] * 2, "statuses")
    eq((u["permission"], u["documents"][0]["permission_scope"]), ("SEND-AND-RECEIVE", "SEND|RECEIVE|1000|DAILY"),
       "permission, permission_scope")
    eq([(h["permission"], h["by"]) for h in u["permission_history"]][-1], ("SEND-AND-RECEIVE", "documents"),
       "the newest permission_history entry")
    eq(ctl.user(s["kyc"]), u, "user() after")
    # None left in review: nothing changes. Documents never lower the permission.
    eq(ctl.review_documents(s["kyc"], "INVALID"), u, "a review of none in review")
    after = ctl.review_document(s["kyc"], sub_document(u, "virtual")["id"], "INVALID")
    eq((after["permission"], sub_document(after, "virtual")["status"]), ("SEND-AND-RECEIVE", "SUBMITTED|INVALID"),
       "permission, the SSN after it was found INVALID")


check("review_documents: every sub-document in review -> SEND-AND-RECEIVE; refusals change nothing; "
      "documents never lower the permission", review_documents)


def add_subscription():
    sub = ctl.add_subscription(HOOK_URL, scopes=["USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH",
                                                 "TRANS|POST", "TRAN|PATCH"])
    eq((sub["url"], sub["is_active"]), (HOOK_URL, True), "url, is_active")
    refused(lambda: ctl.add_subscription("not a url"), 400, "200", "invalid_url")


check("add_subscription; a bad url -> 400 invalid_url", add_subscription)

# --- the clock ---


def clock():
    t0 = ctl.now()  # an aware datetime; now_ms() the same in ms
    eq(ctl.advance("90m"), t0 + datetime.timedelta(minutes=90), "advance(\"90m\")")
    eq(ctl.advance(30), t0 + datetime.timedelta(minutes=90, seconds=30), "advance(30) (seconds)")
    eq(ctl.advance(datetime.timedelta(0)), t0 + datetime.timedelta(minutes=90, seconds=30), "advance(timedelta(0))")
    eq(ctl.now_ms(), int(t0.timestamp() * 1000) + 90 * 60_000 + 30_000, "now_ms() after")
    refused(lambda: ctl.advance("-1h"), 400, "200", "invalid_duration")
    eq(ctl.now(), t0 + datetime.timedelta(minutes=90, seconds=30), "now() after the refusal")


check("now, advance (a Go duration or seconds); a negative duration -> 400 invalid_duration", clock)


def business_day():
    t0 = ctl.now()
    want(ctl.advance_to_next_business_day() > t0, "the clock moved")
    t1 = ctl.now()
    want(ctl.advance_to_cutoff("ach") > t1, "the clock moved to the ACH cutoff")
    refused(lambda: ctl.advance_to_cutoff("noon"), 400, "200", "invalid_cutoff")


check("advance_to_next_business_day, advance_to_cutoff; an unknown cutoff -> 400", business_day)

# --- transactions ---


def transfer(amount, to=None, note=None):
    body = {"to": {"type": "DEPOSIT-US", "id": to or s["savings"]}, "amount": {"amount": amount, "currency": "USD"},
            "extra": {"ip": "127.0.0.1"}}
    if note:
        body["extra"]["note"] = note
    return api("POST", f"/users/{s['user']}/nodes/{s['node']}/trans", body)["_id"]


def transaction_reads():
    tx = transfer(10)
    t = ctl.transaction(tx)
    eq((t["status"], t["amount_cents"], t["from_node_id"], t["to_node_id"]),
       ("CREATED", 10_00, s["node"], s["savings"]), "status, amount_cents, nodes")
    eq(ctl.node(s["node"])["available_cents"], 115_00, "available_cents with 10.00 promised")
    eq(ctl.transactions(node_id=s["node"])[0]["_id"], tx, "transactions(node_id) newest first")
    eq(ctl.transactions(user_id=s["user"], limit=1)[0]["_id"], tx, "transactions(user_id, limit=1)")
    s["tx"] = tx
    refused(lambda: ctl.transaction(UNKNOWN), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.transactions(user_id=UNKNOWN), 404, "404", "unable_to_locate_user")
    refused(lambda: ctl.transactions(node_id=UNKNOWN), 404, "404", "unable_to_locate_node")


check("transaction, transactions(user_id / node_id); unknown ids -> 404", transaction_reads)


def settle():
    t = ctl.settle(s["tx"])
    eq(t["status"], "SETTLED", "status")
    eq([e["status"] for e in t["timeline"]], ["CREATED", "PROCESSING-DEBIT", "PROCESSING-CREDIT", "SETTLED"], "timeline")
    eq(ctl.node(s["savings"])["balance_cents"], 10_00, "the receiver credited")
    refused(lambda: ctl.settle(UNKNOWN), 404, "404", "unable_to_locate_transaction")


check("settle; an unknown id -> 404", settle)


def return_():
    t = ctl.return_(s["tx"], "R01")
    eq((t["status"], t["code"]), ("RETURNED", "R01"), "status, code")
    eq(ctl.node(s["savings"])["balance_cents"], 0, "the credit taken back")
    refused(lambda: ctl.return_(UNKNOWN, "R01"), 404, "404", "unable_to_locate_transaction")


check("return_; an unknown id -> 404", return_)


def dishonor_contest():
    # s["tx"] is an internal transfer returned R01: its return cannot be dishonored.
    err = refused(lambda: ctl.dishonor_return(s["tx"], "R68"), 409, "410", "return_code_not_for_rail")
    want("internal transfer" in err.message, f"message {err.message!r}")
    refused(lambda: ctl.contest_dishonor(s["tx"], "R73"), 409, "410", "not_dishonored")
    refused(lambda: ctl.dishonor_return(UNKNOWN, "R68"), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.contest_dishonor(UNKNOWN, "R73"), 404, "404", "unable_to_locate_transaction")


check("dishonor_return, contest_dishonor of an internal transfer's return -> 409 / \"410\"; unknown ids -> 404", dishonor_contest)


def schedule_return():
    tx = transfer(1)
    t = ctl.schedule_return(tx, "R01", after="24h")
    eq(t["status"], "CREATED", "status when planned")
    ctl.settle(tx)
    ctl.advance("24h")
    eq(ctl.transaction(tx)["status"], "RETURNED", "status 24h after settling")
    refused(lambda: ctl.schedule_return(UNKNOWN, "R01"), 404, "404", "unable_to_locate_transaction")


check("schedule_return(after=\"24h\"); an unknown id -> 404", schedule_return)


def queue_release_cancel():
    tx = transfer(2)
    eq(ctl.queue(tx)["status"], "QUEUED-BY-SYNAPSE", "queue")
    eq(ctl.release(tx)["status"], "CREATED", "release")
    eq(ctl.advance_transaction(tx, "PROCESSING-DEBIT")["status"], "PROCESSING-DEBIT", "advance_transaction")
    other = transfer(3)
    eq(ctl.cancel(other)["status"], "CANCELED", "cancel")
    refused(lambda: ctl.queue(UNKNOWN), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.release(UNKNOWN), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.cancel(UNKNOWN), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.advance_transaction(UNKNOWN, "PROCESSING-DEBIT"), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.cancel(tx), 409, "410", "cannot_cancel_transaction")


check("queue, release, advance_transaction, cancel; unknown ids -> 404, cancel after the debit -> 409 / \"410\"",
      queue_release_cancel)

# --- cards ---


def card_authorization():
    t = ctl.card_authorization(s["card"], 12_00, merchant="Compat Shop")
    eq((t["status"], t["amount_cents"]), ("CREATED", 12_00), "an approved swipe")
    d = ctl.card_authorization(s["card"], 5_00, decline_with="IR51")
    eq((d["status"], d["code"]), ("RETURNED", "IR51"), "a decline")
    s["swipe"] = t["_id"]
    refused(lambda: ctl.card_authorization(UNKNOWN, 1), 404, "404", "unable_to_locate_subnet")


check("card_authorization (approved, declined); an unknown subnet -> 404", card_authorization)


def holds():
    eq(ctl.increment_authorization(s["swipe"], 3_00)["amount_cents"], 15_00, "increment")
    eq(ctl.reverse_authorization(s["swipe"], 5_00)["amount_cents"], 10_00, "partial reverse")
    t = ctl.clear_authorization(s["swipe"])
    eq((t["status"], t["amount_cents"]), ("SETTLED", 10_00), "clear for the held amount")
    other = ctl.card_authorization(s["card"], 1_00)["_id"]
    eq(ctl.reverse_authorization(other)["status"], "CANCELED", "a full reverse")
    refused(lambda: ctl.increment_authorization(UNKNOWN, 1), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.reverse_authorization(UNKNOWN), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.clear_authorization(UNKNOWN), 404, "404", "unable_to_locate_transaction")


check("increment/reverse/clear_authorization; unknown ids -> 404", holds)


def force_post_refund():
    eq(ctl.force_post(s["card"], 2_00, merchant="Late Shop")["status"], "SETTLED", "force_post")
    eq(ctl.refund_card(s["card"], 1_00, merchant="Compat Shop")["amount_cents"], 1_00, "refund_card")
    refused(lambda: ctl.force_post(UNKNOWN, 1), 404, "404", "unable_to_locate_subnet")
    refused(lambda: ctl.refund_card(UNKNOWN, 1), 404, "404", "unable_to_locate_subnet")


check("force_post, refund_card; unknown subnets -> 404", force_post_refund)


def disputes():
    ids = []
    for _ in range(2):
        tx = ctl.card_authorization(s["card"], 4_00, merchant="Compat Shop")["_id"]
        ctl.settle(tx)
        api("PATCH", f"/users/{s['user']}/nodes/{s['node']}/trans/{tx}/dispute",
            {"dispute_reason": "CHARGE_BACK|UNAUTHORIZED_TRANSACTION"})
        ids.append(tx)
    won = ctl.win_dispute(ids[0])
    eq((won["transaction"]["_id"], won["dispute_status"]), (ids[0], "WON"), "win_dispute")
    lost = ctl.lose_dispute(ids[1])
    eq(lost["dispute_status"], "LOST", "lose_dispute")
    refused(lambda: ctl.win_dispute(UNKNOWN), 404, "404", "unable_to_locate_transaction")
    refused(lambda: ctl.lose_dispute(UNKNOWN), 404, "404", "unable_to_locate_transaction")


check("win_dispute, lose_dispute of disputed swipes; unknown ids -> 404", disputes)

# --- return rules, faults ---


def return_rules():
    rules = ctl.add_return_rule(note="bounce me", code="R01")
    eq([(r["note"], r["code"]) for r in rules], [("bounce me", "R01")], "rules after add")
    eq(len(ctl.return_rules()), 1, "return_rules()")
    tx = transfer(1, note="please bounce me")
    ctl.settle(tx)
    eq(ctl.transaction(tx)["status"], "RETURNED", "a matching transfer, settled")
    ctl.clear_return_rules()
    eq(ctl.return_rules(), [], "after clear_return_rules")
    refused(lambda: ctl.add_return_rule(code="R01"), 400, "200", "invalid_rule")


check("add_return_rule, return_rules, clear_return_rules; a rule matching nothing -> 400 invalid_rule", return_rules)


def faults():
    ctl.fail_next("GET", "/users/{user_id}/nodes/{node_id}", "503")
    try:
        api("GET", f"/users/{s['user']}/nodes/{s['node']}")
        raise AssertionError("the fault did not fire")
    except urllib.error.HTTPError as err:
        eq(err.code, 503, "HTTP status of the failed call")
    eq(api("GET", f"/users/{s['user']}/nodes/{s['node']}")["_id"], s["node"], "the next call")
    ctl.slow_next("GET", "/users/{user_id}/nodes/{node_id}", "1ms")
    api("GET", f"/users/{s['user']}/nodes/{s['node']}")
    refused(lambda: ctl.fail_next("GET", "/nowhere", "503"), 400, "200", "invalid_fault")
    refused(lambda: ctl.slow_next("GET", "/nowhere", "1s"), 400, "200", "invalid_fault")


check("fail_next, slow_next; an unknown route -> 400 invalid_fault", faults)

# --- webhooks ---


def webhooks():
    count = ctl.flush()
    want(count > 0, f"webhooks_count {count}")
    got = ctl.webhooks()
    eq(len(got), count, "webhooks() reads every page")
    eq(ctl.webhooks(limit=1), got[-1:], "webhooks(limit=1): the newest")
    refused(lambda: ctl.webhooks(limit=0), 400, "200", "invalid_limit")


check("flush -> webhooks_count; webhooks(), webhooks(limit); limit=0 -> 400", webhooks)


def wait_webhook():
    n = ctl.add_node(s["user"], nickname="Waited")["_id"]
    h = ctl.wait_webhook(object_id=n, function="NODES|POST")
    eq((h["object_id"], h["function"]), (n, "NODES|POST"), "object_id, function")
    want(all(a["code"] == 200 for d in h["deliveries"] for a in d["attempts"]), f"deliveries {h['deliveries']}")
    err = refused(lambda: ctl.wait_webhook(object_id=UNKNOWN, timeout="0s"), 404, "404", "no_matching_webhook")
    want("captured" in err.message, f"message {err.message!r}")
    refused(lambda: ctl.wait_webhook(), 400, "200", "missing_match")


check("wait_webhook(object_id, function); none -> 404 no_matching_webhook, no matcher -> 400", wait_webhook)


def reset_webhooks():
    ctl.reset_webhooks()
    eq(ctl.webhooks(), [], "webhooks after reset_webhooks")


check("reset_webhooks", reset_webhooks)


def chaos():
    c = ctl.set_chaos({"seed": 7, "default": {"duplicate": 0.5}})
    eq((c["seed"], c["default"]["duplicate"]), (7, 0.5), "seed, default.duplicate")
    eq(ctl.chaos()["seed"], 7, "chaos()")
    eq(ctl.clear_chaos().get("default", {}).get("duplicate", 0), 0, "after clear_chaos")
    refused(lambda: ctl.set_chaos({"default": {"duplicate": 2}}), 400, "200", "invalid_chaos")


check("set_chaos, chaos, clear_chaos; a probability of 2 -> 400", chaos)

# --- the journal, worlds, state, reset ---


def journal():
    want(any(r["path"].endswith(f"/nodes/{s['node']}") for r in ctl.requests()), "the API calls are in the journal")
    ctl.reset_requests()
    eq(ctl.requests(), [], "requests after reset_requests")


check("requests, reset_requests", journal)


def world():
    ids = ctl.load_world({"users": [{"name": "wendy", "legal_names": ["Wendy World"],
                                     "nodes": [{"name": "w", "nickname": "W", "balance": "12.00"}]}]})
    eq(ctl.node(ids["nodes"]["w"])["balance_cents"], 12_00, "the world's node")
    eq(ctl.user(ids["users"]["wendy"])["legal_names"], ["Wendy World"], "the world's user")
    refused(lambda: ctl.load_world({"users": [{"nodes": "many"}]}), 400, "200", "invalid_world")


check("load_world -> names to ids; a bad world -> 400 invalid_world", world)


def state_restore():
    doc = ctl.state()
    users = len(ctl.users(limit=1000))
    ctl.add_user(legal_names=["Gone After Restore"])
    ctl.restore(doc)
    eq(len(ctl.users(limit=1000)), users, "users after restore")
    ctl.restore(json.dumps(doc))  # a document as text too
    refused(lambda: ctl.restore({"version": "nope"}), 400, "200", "invalid_state")
    eq(len(ctl.users(limit=1000)), users, "users after a refused restore")


check("state, restore (dict or text); a bad document -> 400 invalid_state, nothing changed", state_restore)


def docs_example():
    # The Python block of docs/control-api.md's "Clients in other languages",
    # run as written against this server.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "control-api.md")) as f:
        doc = f.read()
    section = doc[doc.index("## Clients in other languages"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    want("http://127.0.0.1:8080/v3.1" in code, "the block's base URL")
    exec(compile(code.replace("http://127.0.0.1:8080/v3.1", ctl.origin + "/v3.1"), "docs/control-api.md", "exec"), {})


check("docs/control-api.md's Python example runs as written", docs_example)


def python_md_example():
    # The block of docs/python.md's "The control client", as written: it
    # serves a fake of its own (SYNAPSEFAKE_BIN, run.sh's binary).
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")) as f:
        doc = f.read()
    section = doc[doc.index("## The control client"):]
    code = section[section.index("```python\n") + len("```python\n"):]
    code = code[:code.index("```")]
    want("review_documents" in code, "the block reviews documents")
    exec(compile(code, "docs/python.md", "exec"), {"__name__": "docs_python_md"})


check("docs/python.md's control client example runs as written", python_md_example)


def reset():
    ctl.reset()
    eq(ctl.users(), [], "users after reset")
    refused(lambda: ctl.node(s["node"]), 404, "404", "unable_to_locate_node")


check("reset: nothing left", reset)

# --- platforms ---


def platforms():
    p = ctl.add_platform(name="Other", client_id="compat_other", start="2026-01-02T09:00:00Z", clock="manual", seed=7)
    eq((p["client_id"], p["name"], p["gateway"]), ("compat_other", "Other", "compat_other|" + p["client_secret"]),
       "client_id, name, gateway")
    eq(p["control_url"], ctl.origin + "/_fake/platforms/compat_other", "control_url")
    eq(p["now"], 1767344400000, "now: the start given")
    eq([q["client_id"] for q in ctl.platforms()][1:], ["compat_other"], "platforms(), the default first")
    eq(ctl.get_platform("compat_other")["name"], "Other", "get_platform")
    other = ctl.platform("compat_other")
    eq(other.control_root, ctl.origin + "/_fake/platforms/compat_other", "the platform's control root")
    eq(Control(p["control_url"]).control_root, other.control_root, "Control(control_url)")
    before = ctl.now()
    eq(other.advance("48h"), datetime.datetime(2026, 1, 4, 9, tzinfo=datetime.timezone.utc), "the platform's clock after advance")
    eq(ctl.now(), before, "the default platform's clock did not move")
    user = other.add_user(legal_names=["Only Here"])
    eq([u["_id"] for u in other.users()], [user["_id"]], "the platform's users")
    eq([u["_id"] for u in ctl.users() if u["_id"] == user["_id"]], [], "the default platform does not see it")
    err = refused(lambda: other.user(UNKNOWN), 404, "404", "unable_to_locate_user")
    eq(err.path, f"/_fake/platforms/compat_other/users/{UNKNOWN}", "the refused call's path")
    eq(err.reason, err.message, "reason")
    refused(lambda: ctl.add_platform(client_id="compat_other"), 409, "410", "platform_exists")
    ctl.delete_platform("compat_other")
    refused(lambda: ctl.get_platform("compat_other"), 404, "404", "unable_to_locate_platform")
    refused(lambda: ctl.delete_platform(p["client_id"]), 404, "404", "unable_to_locate_platform")


check("add_platform, platforms, get_platform, platform(client_id), delete_platform; a client id in use -> 409 / \"410\"",
      platforms)


def restore_copy():
    doc = ctl.state()
    users = len(ctl.users(limit=1000))
    ctl.add_platform(client_id="compat_copy")
    other = ctl.platform("compat_copy")
    refused(lambda: other.restore(doc), 400, "200", "invalid_state")
    eq(len(other.users(limit=1000)), 0, "users after a refused restore")
    other.restore(doc, copy=True)
    eq(len(other.users(limit=1000)), users, "the default's users, copied")
    ctl.delete_platform("compat_copy")


check("restore(doc, copy=True): another platform's document (PUT .../state?copy=true); without copy -> 400 invalid_state",
      restore_copy)



def every_method():
    methods = {m for m in dir(Control) if not m.startswith("_") and callable(getattr(Control, m))}
    eq(sorted(methods - Recording.called), [], "methods of Control no check called")


check("every method of Control was called above", every_method)

hooks.shutdown()
print(f"{passed} passed, {failed} failed", flush=True)
sys.exit(0 if failed == 0 else 1)
