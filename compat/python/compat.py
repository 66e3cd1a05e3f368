# Drives a running synapsefake through the official Python client SynapsePy,
# unmodified: every method of its Client and User objects that sends a
# request (and the Node(s), Trans/Transactions, Subnet(s) and
# Subscription(s) wrappers they return), checking what the client returned.
#
#	/usr/bin/python3 compat.py http://127.0.0.1:PORT/v3.1
#
# run.sh starts the server, puts the SDK (extracted from
# ../shared/sdks/SynapsePy.tar.gz) on PYTHONPATH and calls this. The client id
# and secret come from SYNAPSEFAKE_CLIENT_ID and SYNAPSEFAKE_CLIENT_SECRET.
# Settling, returning, funding and card swipes go through the fake's control
# API (/_fake/..., no credentials) with synapsefake_control.py, the Python
# client of the control API beside this file. Prints one line per check and closes with
# "N passed, M failed, K skipped": a skip is one of the SDK's own bugs, shown
# happening and named, never counted. Exits 1 when a check failed.

import json
import os
import re
import sys
import threading
import warnings

from synapsepy import Client
from synapsepy import errors as api_errors
from synapsepy.tests.fixtures import node_fixtures, subnet_fixtures, subscription_fixtures, trans_fixtures, user_fixtures
from synapsefake_control import Control

if len(sys.argv) != 2 or not re.fullmatch(r"https?://.+/v3\.1", sys.argv[1]):
    sys.exit("usage: compat.py http://HOST:PORT/v3.1")
BASE = sys.argv[1]
ctl = Control(BASE)
CLIENT_ID = os.environ.get("SYNAPSEFAKE_CLIENT_ID")
CLIENT_SECRET = os.environ.get("SYNAPSEFAKE_CLIENT_SECRET")
if not CLIENT_ID or not CLIENT_SECRET:
    sys.exit("compat.py: set SYNAPSEFAKE_CLIENT_ID and SYNAPSEFAKE_CLIENT_SECRET")

FP1 = "compat-fingerprint-1"
FP2 = "compat-fingerprint-2"
IP = "127.0.0.1"
PHONE = "901.111.1111"
SCOPES = ["USERS|POST", "USER|PATCH", "NODES|POST", "NODE|PATCH", "TRANS|POST", "TRAN|PATCH"]

# ship_card_node and reset_card_node warn that CARD-US nodes are deprecated.
warnings.simplefilter("ignore", DeprecationWarning)

passed = failed = 0
skipped = []


def finish():
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {len(skipped)} skipped"
    print(line, flush=True)
    os._exit(0 if failed == 0 else 1)


# Stop a hung run rather than wait for CI's limit.
_timer = threading.Timer(60, lambda: (print("FAIL - the run took more than 60 s"), finish()))
_timer.daemon = True
_timer.start()


def detail(err):
    if isinstance(err, api_errors.SynapseError):
        return f"{type(err).__name__} (error_code {err.error_code}, http_code {err.http_code}): {err.response}"
    return f"{type(err).__name__}: {err}"


def check(name, fn):
    """Runs one named check; a failure is reported and counted, and the run goes on."""
    global passed, failed
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - every failure is reported
        failed += 1
        print(f"FAIL - {name}: {detail(err)}", flush=True)
        return
    passed += 1
    print(f"ok   - {name}", flush=True)


def sdk_bug(name, reason, fn, happened):
    """Runs fn, which shows one of the SDK's own bugs. When happened(err) says
    the bug showed as described, the check is listed as skipped with reason;
    any other outcome is a failure."""
    global failed
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        if happened(err):
            skipped.append(name)
            print(f"skip - {name}: SDK bug: {reason}", flush=True)
            return
        failed += 1
        print(f"FAIL - {name}: {detail(err)}", flush=True)
        return
    failed += 1
    print(f"FAIL - {name}: the call succeeded, so the SDK bug it shows ({reason}) did not happen", flush=True)


def want(cond, msg):
    if not cond:
        raise AssertionError(msg)


def eq(got, exp, what):
    want(got == exp, f"{what} is {got!r}, want {exp!r}")


def raises(exc_type, fn):
    """Calls fn, which must raise exc_type; returns the error."""
    try:
        fn()
    except exc_type as err:
        return err
    raise AssertionError(f"want {exc_type.__name__}, the call succeeded")


def last_path():
    """The path of the last API request the fake received (its journal)."""
    return ctl.requests()[-1]["path"]


def shape(recorded, got, path="answer"):
    """Lists where got lacks a key of the SDK's recorded fixture, or holds a
    value of another JSON type (null matches anything; lists compare their
    first elements)."""
    out = []
    if isinstance(recorded, dict):
        if not isinstance(got, dict):
            return [f"{path} is {type(got).__name__}, want an object"]
        for k, v in recorded.items():
            if k not in got:
                out.append(f"{path}.{k} missing")
            else:
                out += shape(v, got[k], f"{path}.{k}")
    elif isinstance(recorded, list):
        if not isinstance(got, list):
            return [f"{path} is {type(got).__name__}, want a list"]
        if recorded and got:
            out += shape(recorded[0], got[0], path + "[0]")
    elif recorded is not None and got is not None:
        kind = lambda v: "bool" if isinstance(v, bool) else "number" if isinstance(v, (int, float)) else type(v).__name__
        if kind(recorded) != kind(got):
            out.append(f"{path} is {kind(got)} {got!r}, want {kind(recorded)}")
    return out


def like(recorded, got):
    diffs = shape(recorded, got)
    want(not diffs, "unlike the SDK's recorded answer: " + "; ".join(diffs))


def base_document(email, name, ssn):
    return {
        "email": email, "phone_number": PHONE, "ip": IP, "name": name, "alias": "Compat",
        "entity_type": "M", "entity_scope": "Arts & Entertainment", "day": 2, "month": 5, "year": 1989,
        "address_street": "1 Market St", "address_city": "SF", "address_subdivision": "CA",
        "address_postal_code": "94105", "address_country_code": "US",
        "virtual_docs": [{"document_value": ssn, "document_type": "SSN"}],
        "physical_docs": [{"document_value": "data:image/gif;base64,SUQs==", "document_type": "GOVT_ID"}],
        "social_docs": [{"document_value": "https://www.facebook.com/compat", "document_type": "FACEBOOK"}],
    }


# The recipe of docs/compatibility.md: SynapsePy has no host option; its
# HttpClient keeps the base URL in client.http.base_url, read on every call.
client = Client(client_id=CLIENT_ID, client_secret=CLIENT_SECRET, fingerprint=FP1, ip_address=IP, devmode=True)
client.http.base_url = BASE

s = {}  # state shared by the checks

# ---- Client ----


def create_user():
    u = client.create_user(user_fixtures.simple_user, IP)
    want(isinstance(u.id, str) and len(u.id) == 24, f"user id {u.id!r}")
    eq(u.body["_id"], u.id, "body._id")
    want(u.body["refresh_token"].startswith("refresh_"), f"refresh_token {u.body['refresh_token']!r}")
    eq(u.body["legal_names"], ["Test User"], "legal_names")
    eq(u.body["extra"]["supp_id"], "my_user_id", "extra.supp_id")
    like(user_fixtures.simple_response, u.body)
    s["user"] = u


check("Client.create_user (answer as the SDK's recorded user)", create_user)


def get_user():
    u = client.get_user(s["user"].id, full_dehydrate=True)
    eq(u.id, s["user"].id, "id")
    eq(u.full_dehydrate, "yes", "full_dehydrate")
    eq(u.body["refresh_token"], s["user"].body["refresh_token"], "refresh_token")
    want(isinstance(u.body["documents"], list), "documents is a list")


check("Client.get_user(full_dehydrate=True)", get_user)


def get_all_users():
    users = client.get_all_users(query="Test User", page=1, per_page=20, show_refresh_tokens="yes")
    eq(users.page, 1, "page")
    want(users.users_count >= 1, f"users_count {users.users_count}")
    ids = [u.id for u in users.list_of_users]
    want(s["user"].id in ids, f"{s['user'].id} not in {ids}")
    mine = [u for u in users.list_of_users if u.id == s["user"].id][0]
    eq(mine.body["refresh_token"], s["user"].body["refresh_token"], "refresh_token in the list")
    like(user_fixtures.users_resp["users"][0], mine.body)


check("Client.get_all_users(query, page, per_page, show_refresh_tokens) -> Users", get_all_users)

# ---- User: OAuth and fingerprints ----


def oauth():
    r = s["user"].oauth()
    want(r["oauth_key"].startswith("oauth_"), f"oauth_key {r['oauth_key']!r}")
    eq(r["user_id"], s["user"].id, "user_id")
    eq(client.http.oauth_key, r["oauth_key"], "the key the client now sends")
    s["oauth_key"] = r["oauth_key"]


check("User.oauth() -> key set on the client", oauth)


def oauth_scoped():
    r = s["user"].oauth({"scope": ["USER|PATCH", "USER|GET", "NODES|POST", "NODES|GET"]})
    eq(sorted(r["scope"]), sorted(["USER|PATCH", "USER|GET", "NODES|POST", "NODES|GET"]), "scope")
    s["user"].oauth()  # every scope again, for the checks below


check("User.oauth(payload with scope)", oauth_scoped)


def refresh():
    tok = s["user"].refresh()
    eq(tok, s["user"].body["refresh_token"], "returned refresh_token")
    want(tok.startswith("refresh_"), f"refresh_token {tok!r}")


check("User.refresh() -> refresh_token", refresh)


def oauth_recovers():
    good = s["user"].body["refresh_token"]
    s["user"].body["refresh_token"] = "refresh_" + "0" * 40
    r = s["user"].oauth()  # 409 / "400", then GET the user and retry
    eq(s["user"].body["refresh_token"], good, "refresh_token after recovery")
    eq(client.http.oauth_key, r["oauth_key"], "oauth_key")


check("User.oauth() with a spent refresh token recovers (409 / \"400\", refresh, retry)", oauth_recovers)


def new_fingerprint():
    client.update_headers(fingerprint=FP2)
    err = raises(api_errors.ActionPending, s["user"].oauth)
    eq(err.error_code, "10", "error_code")
    eq(err.http_code, "202", "http_code")
    want(PHONE in err.response["phone_numbers"], f"phone_numbers {err.response.get('phone_numbers')}")


check("Client.update_headers(fingerprint) then User.oauth() -> ActionPending with the devices", new_fingerprint)


def select_2fa_device():
    r = s["user"].select_2fa_device(PHONE)
    eq(r["error_code"], "10", "error_code")
    eq(r["http_code"], "202", "http_code")
    want("error" not in r, "no error key")
    want(PHONE in r["message"]["en"], f"message.en {r['message']['en']!r}")


check("User.select_2fa_device(phone)", select_2fa_device)


def confirm_2fa_pin():
    err = raises(api_errors.IncorrectValues, lambda: s["user"].confirm_2fa_pin("000000"))
    eq(err.error_code, "400", "error_code for a wrong pin")
    pin = ctl.mfa_pin(s["user"].id)
    r = s["user"].confirm_2fa_pin(pin)
    eq(client.http.oauth_key, r["oauth_key"], "the key the client now sends")
    eq(client.http.fingerprint, FP2, "fingerprint")
    s["user"].refresh()  # a call with the new key and fingerprint


check("User.confirm_2fa_pin(wrong, then right pin) -> key for the new fingerprint", confirm_2fa_pin)

# ---- User ----


def update_info():
    r = s["user"].update_info({"documents": [base_document("compat@example.com", "Test User", "2222")]})
    eq(s["user"].body, r, "user.body after the update")
    doc = r["documents"][0]
    want(re.fullmatch(r"[0-9a-f]{64}", doc["id"]), f"documents[0].id {doc['id']!r}")
    eq([d["document_type"] for d in doc["virtual_docs"]], ["SSN"], "virtual document types")
    r = s["user"].update_info({"update": {"login": {"email": "compat2@example.com"}, "phone_number": "901-111-2222"}})
    want({"email": "compat2@example.com", "scope": "READ_AND_WRITE"} in r["logins"], f"logins {r['logins']}")
    want("901-111-2222" in r["phone_numbers"], f"phone_numbers {r['phone_numbers']}")
    s["doc_id"] = doc["id"]


check("User.update_info(documents, then update) -> user.body", update_info)


def create_ubo():
    person = {"document_id": s["doc_id"], "relationship_to_entity": "CEO"}
    body = {
        "entity_info": {"cryptocurrency": True, "msb": {"federal": True, "states": ["AL"]}, "public_company": False,
                        "majority_owned_by_listed": False, "registered_SEC": False, "regulated_financial": False,
                        "gambling": False, "document_id": s["doc_id"]},
        "signer": person, "compliance_contact": person, "primary_controlling_contact": person,
        "owners": [{"document_id": s["doc_id"], "title": "CEO", "ownership": 95}], "attested": True,
    }
    r = s["user"].create_ubo(body)
    eq(r["_id"], s["user"].id, "_id")
    types = [d["document_type"] for d in r["documents"][0]["physical_docs"]]
    want("REG_GG" in types, f"physical document types {types}")


check("User.create_ubo(body)", create_ubo)


def get_statements():
    r = s["user"].get_statements(page=1, per_page=10)
    eq(r["error_code"], "0", "error_code")
    want(isinstance(r["statements"], list), "statements is a list")


check("User.get_statements(page, per_page)", get_statements)

# ---- Nodes ----


def create_node():
    nodes = s["user"].create_node({"type": "DEPOSIT-US", "info": {"nickname": "My Checking"}})
    eq((nodes.page, nodes.node_count, len(nodes.list_of_nodes)), (1, 1, 1), "page, node_count, nodes")
    n = nodes.list_of_nodes[0]
    eq(n.type, "DEPOSIT-US", "type")
    like(node_fixtures.debit_us_get_response, n.body)
    s["deposit"] = n.id


check("User.create_node(DEPOSIT-US) -> Nodes (node as the SDK's recorded one)", create_node)


def create_ach():
    nodes = s["user"].create_node(node_fixtures.ach_us_acrt)
    n = nodes.list_of_nodes[0]
    eq(n.type, "ACH-US", "type")
    like(node_fixtures.ach_us_get_response, n.body)
    s["ach"] = n.id


check("User.create_node(ACH-US by account and routing number)", create_ach)


def reinit_micro():
    r = s["user"].reinit_micro(s["ach"])
    eq(r["_id"], s["ach"], "_id")


check("User.reinit_micro(node)", reinit_micro)


def verify_micro():
    n = s["user"].verify_micro(s["ach"], {"micro": [0.1, 0.1]})
    eq(n.id, s["ach"], "id")
    eq(n.body["allowed"], "CREDIT-AND-DEBIT", "allowed")


check("User.verify_micro(node, micro) -> Node", verify_micro)


def bank_login():
    r = s["user"].create_node(node_fixtures.ach_us_logins)
    eq(r["error_code"], "10", "error_code")
    like(node_fixtures.ach_mfa_resp, r)
    nodes = s["user"].ach_mfa({"access_token": r["mfa"]["access_token"], "mfa_answer": "test_answer"})
    want(nodes.node_count >= 1, f"node_count {nodes.node_count}")
    eq({n.type for n in nodes.list_of_nodes}, {"ACH-US"}, "types")
    like(node_fixtures.ach_us_get_response, nodes.list_of_nodes[0].body)
    s["savings"] = nodes.list_of_nodes[-1].id


check("User.create_node(bank login) -> MFA, User.ach_mfa(answer) -> Nodes", bank_login)


def get_node():
    n = s["user"].get_node(s["deposit"], full_dehydrate=True, force_refresh=True)
    eq((n.id, n.type, n.full_dehydrate), (s["deposit"], "DEPOSIT-US", True), "id, type, full_dehydrate")
    eq(n.body["info"]["nickname"], "My Checking", "nickname")


check("User.get_node(full_dehydrate, force_refresh) -> Node", get_node)


def get_all_nodes():
    nodes = s["user"].get_all_nodes(page=1, per_page=10, type="DEPOSIT-US")
    eq([n.id for n in nodes.list_of_nodes], [s["deposit"]], "DEPOSIT-US nodes")
    eq(nodes.node_count, 1, "node_count")
    every = s["user"].get_all_nodes()
    want({s["deposit"], s["ach"], s["savings"]} <= {n.id for n in every.list_of_nodes}, "every node listed")


check("User.get_all_nodes(page, per_page, type) -> Nodes", get_all_nodes)


def update_node():
    n = s["user"].update_node(s["deposit"], {"supp_id": "new_supp_id_1234"})
    eq(n.body["extra"]["supp_id"], "new_supp_id_1234", "extra.supp_id")


check("User.update_node(node, body) -> Node", update_node)


def card_node():
    nodes = s["user"].create_node(node_fixtures.card_us_payload)
    n = nodes.list_of_nodes[0]
    eq(n.type, "CARD-US", "type")
    like(node_fixtures.card_us_get_response, n.body)
    s["card_node"] = n.id


check("User.create_node(CARD-US) (node as the SDK's recorded one)", card_node)


def ship_card_node():
    r = s["user"].ship_card_node(s["card_node"], {"fee_node_id": s["deposit"], "expedite": True})
    eq(r["_id"], s["card_node"], "_id")


check("User.ship_card_node(node, body)", ship_card_node)


def reset_card_node():
    before = s["user"].get_node(s["card_node"]).body["info"]
    r = s["user"].reset_card_node(s["card_node"])
    eq(r["_id"], s["card_node"], "_id")
    want(r["info"]["card_hash"] != before["card_hash"], f"card_hash {r['info']['card_hash']!r} unchanged: no new card")


check("User.reset_card_node(node)", reset_card_node)


def apple_pay():
    r = s["user"].generate_apple_pay(s["card_node"], {"certificate": "your applepay cert", "nonce": "9c02xxx2",
                                                       "nonce_signature": "4082f883ae62d0700c283e225ee9d286713ef74"})
    want(r["success"] is True, f"answer {r}")


check("User.generate_apple_pay(node, body)", apple_pay)


def ecash_barcode():
    r = s["user"].generate_ecash_barcode(s["deposit"], {"amount": {"amount": 20, "currency": "USD"}, "retailer_id": 2481})
    want(r["success"] is True, f"answer {r}")


check("User.generate_ecash_barcode(node, body)", ecash_barcode)


def node_statements():
    r = s["user"].get_node_statements(s["deposit"], page=1, per_page=10)
    want(isinstance(r["statements"], list), f"answer {r}")


check("User.get_node_statements(node, page, per_page)", node_statements)

# ---- Funding, transactions ----


def dummy_credit():
    for _ in range(2):
        r = s["user"].dummy_tran(s["deposit"], is_credit=True)
        eq(r["recent_status"]["status"], "CREATED", "status under -clock manual")
        eq((r["to"]["id"], r["amount"]["amount"]), (s["deposit"], 100), "to.id, amount")
        ctl.settle(r["_id"])
    n = s["user"].get_node(s["deposit"])
    eq(n.body["info"]["balance"]["amount"], 200.0, "balance after settling")


check("User.dummy_tran(node, is_credit=True) twice, settled through /_fake/ -> balance 200.00", dummy_credit)



def create_trans():
    t = s["user"].create_trans(s["deposit"], {"to": {"type": "ACH-US", "id": s["ach"]},
                                              "amount": {"amount": 20.1, "currency": "USD"}, "extra": {"ip": IP}})
    eq(t.body["amount"]["amount"], 20.1, "amount")
    eq(t.body["recent_status"]["status"], "CREATED", "status")
    eq((t.body["from"]["id"], t.body["to"]["id"]), (s["deposit"], s["ach"]), "from, to")
    like(trans_fixtures.trans_get_response, t.body)
    s["tx"] = t.id


check("User.create_trans(node, body) -> Trans (as the SDK's recorded one)", create_trans)


def get_trans():
    t = s["user"].get_trans(s["deposit"], s["tx"])
    eq(t.id, s["tx"], "id")
    eq(t.body["amount"]["amount"], 20.1, "amount")


check("User.get_trans(node, trans) -> Trans", get_trans)


def comment_trans():
    r = s["user"].comment_trans(s["deposit"], s["tx"], "Pending verification...")
    eq(r["_id"], s["tx"], "_id")
    notes = [e["note"] for e in r["timeline"]]
    want(any("Pending verification..." in n for n in notes), f"timeline notes {notes}")


check("User.comment_trans(node, trans, comment)", comment_trans)


def node_trans():
    ts = s["user"].get_all_node_trans(s["deposit"], page=1, per_page=10)
    want(s["tx"] in [t.id for t in ts.list_of_trans], "transaction listed")
    eq(ts.trans_count, 3, "trans_count (two dummy credits and the payment)")
    like(trans_fixtures.get_all_trans_resp["trans"][0], ts.list_of_trans[0].body)


check("User.get_all_node_trans(node, page, per_page) -> Transactions", node_trans)


def user_trans():
    ts = s["user"].get_all_trans(page=1, per_page=10)
    want(s["tx"] in [t.id for t in ts.list_of_trans], "transaction listed")
    eq(ts.page, 1, "page")


check("User.get_all_trans(page, per_page) -> Transactions", user_trans)


def cancel_trans():
    r = s["user"].cancel_trans(s["deposit"], s["tx"])
    eq(r["recent_status"]["status"], "CANCELED", "status")
    n = s["user"].get_node(s["deposit"])
    eq(n.body["info"]["balance"]["amount"], 200.0, "balance after cancelling")


check("User.cancel_trans(node, trans)", cancel_trans)


def cancel_settled():
    t = s["user"].create_trans(s["deposit"], {"to": {"type": "ACH-US", "id": s["ach"]},
                                              "amount": {"amount": 10, "currency": "USD"}, "extra": {"ip": IP}})
    ctl.settle(t.id)
    err = raises(api_errors.ActionNotAllowed, lambda: s["user"].cancel_trans(s["deposit"], t.id))
    eq(err.error_code, "410", "error_code")
    s["settled"] = t.id


check("User.cancel_trans of a settled transaction -> ActionNotAllowed (409 / \"410\")", cancel_settled)


# ---- Subnets ----


def create_subnet():
    sn = s["user"].create_subnet(s["deposit"], {"nickname": "Test AC/RT"})
    eq((sn.user_id, sn.node_id), (s["user"].id, s["deposit"]), "user_id, node_id")
    like(subnet_fixtures.subnet_get_resp, sn.body)
    card = s["user"].create_subnet(s["deposit"], {"nickname": "Test Card", "account_class": "CARD"})
    eq(card.body["account_class"], "CARD", "account_class")
    s["acct"], s["card"] = sn.id, card.id


check("User.create_subnet(node, body) -> Subnet (as the SDK's recorded one)", create_subnet)


def get_subnet():
    sn = s["user"].get_subnet(s["deposit"], s["acct"])
    eq(sn.id, s["acct"], "id")
    eq(sn.body["nickname"], "Test AC/RT", "nickname")


check("User.get_subnet(node, subnet) -> Subnet", get_subnet)


def get_all_subnets():
    sns = s["user"].get_all_subnets(s["deposit"], page=1, per_page=10)
    eq(sorted(x.id for x in sns.list_of_subnets), sorted([s["acct"], s["card"]]), "subnets")
    eq(sns.subnets_count, 2, "subnets_count")


check("User.get_all_subnets(node, page, per_page) -> Subnets", get_all_subnets)


def update_subnet():
    sn = s["user"].update_subnet(s["deposit"], s["card"], {"status": "ACTIVE", "card_pin": "1234",
                                                           "preferences": {"allow_foreign_transactions": True,
                                                                           "daily_atm_withdrawal_limit": 10,
                                                                           "daily_transaction_limit": 1000}})
    eq(sn.body["status"], "ACTIVE", "status")
    # USD in, cents out, as the spec says
    eq(sn.body["preferences"]["daily_transaction_limit"], 100000, "preferences.daily_transaction_limit")


check("User.update_subnet(node, subnet, body) -> Subnet", update_subnet)


def ship_card():
    r = s["user"].ship_card(s["deposit"], s["card"], {"fee_node_id": s["deposit"], "expedite": False, "card_style_id": "555"})
    want(r["success"] is True, f"answer {r}")
    ships = s["user"].view_all_card_shipments(s["deposit"], s["card"], per_page=10, page=1)
    eq(len(ships["ships"]), 1, "shipments")
    s["ship"] = ships["ships"][0]["_id"]


check("User.ship_card(node, subnet, body), view_all_card_shipments(per_page, page)", ship_card)


def view_card_shipment():
    r = s["user"].view_card_shipment(s["deposit"], s["card"], s["ship"])
    eq(r["_id"], s["ship"], "_id")
    eq(r["status"], "CREATED", "status")


check("User.view_card_shipment(node, subnet, shipment)", view_card_shipment)


def cancel_card_shipment():
    r = s["user"].cancel_card_shipment(s["deposit"], s["card"], s["ship"])
    eq(r["status"], "CANCELED", "status")


check("User.cancel_card_shipment(node, subnet, shipment)", cancel_card_shipment)


def push_to_wallet():
    r = s["user"].push_to_mobile_wallet(s["deposit"], s["card"], {"type": "APPLE_PUSH", "nonce": "OWMwMnh4eDI=",
                                                                 "nonce_signature": "NDA4MmY4ODNhZTYy",
                                                                 "certificates": ["Y2VydDE=", "Y2VydDI="]})
    want(r["data"]["authentication"], f"data.authentication in {r}")


check("User.push_to_mobile_wallet(node, subnet, body)", push_to_wallet)


def dummy_card():
    r = s["user"].dummy_tran(s["deposit"], subnet_id=s["card"], type="INTERCHANGE", is_credit=False, foreign_transaction=False)
    eq(r["from"]["id"], s["deposit"], "from.id (a withdrawal)")
    eq(r["recent_status"]["status"], "CREATED", "status")


check("User.dummy_tran(node, subnet_id, type, is_credit=False, foreign_transaction)", dummy_card)


def dispute_trans():
    tx = ctl.card_authorization(s["card"], 1200, merchant="Compat Shop")["_id"]
    ctl.settle(tx)
    r = s["user"].dispute_trans(s["deposit"], tx, "CHARGE_BACK|UNAUTHORIZED_TRANSACTION",
                                dispute_meta={"type_of_merchandise_or_service": "groceries"},
                                certification_date=1579656483, dispute_attachments=["data:image/gif;base64,SUQs=="])
    want(r["success"] is True, f"answer {r}")
    want(isinstance(r["dispute_form"], str), f"dispute_form in {r}")
    # $25.00 or less gets a provisional credit, 15 business days later for a node this young.
    eq(r["provisional_credit_tran"], None, "provisional_credit_tran (not yet due)")
    t = s["user"].get_trans(s["deposit"], tx)
    eq(t.body["extra"]["other"]["disputed"], True, "extra.other.disputed")
    eq(t.body["extra"]["other"]["provisional_credit_transaction_id"], None, "extra.other.provisional_credit_transaction_id")


check("User.dispute_trans(node, card swipe, reason, meta, date, attachments)", dispute_trans)


def dispute_chargeback():
    tx = ctl.card_authorization(s["card"], 500, merchant="Compat Shop")["_id"]
    ctl.settle(tx)
    ctl.return_(tx, "IR999")
    r = client.dispute_chargeback(tx, {"docs": ["data:application/pdf;base64,SUQs=="]})
    eq(r["_id"], tx, "_id")
    eq(r["extra"]["other"]["dispute_status"], "PENDING", "extra.other.dispute_status")


check("Client.dispute_chargeback(trans, docs) of a swipe returned IR999", dispute_chargeback)


def delete_node():
    r = s["user"].delete_node(s["savings"])
    want(r["success"] is True, f"answer {r}")
    ids = [n.id for n in s["user"].get_all_nodes().list_of_nodes]
    want(s["savings"] not in ids, "deleted node still listed")


check("User.delete_node(node)", delete_node)

# ---- Client: platform and reference ----


def subscriptions():
    sub = client.create_subscription("https://example.com/hooks", subscription_fixtures.sub_scope)
    eq(sub.url, "https://example.com/hooks", "url")
    like(subscription_fixtures.subs_resp, sub.body)
    got = client.get_subscription(sub.id)
    eq((got.id, got.body["scope"]), (sub.id, subscription_fixtures.sub_scope), "id, scope")
    up = client.update_subscription(sub.id, {"url": "https://example.com/2", "scope": SCOPES[:3]})
    eq((up.url, up.body["scope"]), ("https://example.com/2", SCOPES[:3]), "url, scope after the update")
    subs = client.get_all_subs(page=1, per_page=20)
    want(sub.id in [x.id for x in subs.list_of_subs], "subscription listed")
    like(subscription_fixtures.subss_resp["subscriptions"][0], subs.list_of_subs[0].body)
    eq(subs.subscriptions_count, len(subs.list_of_subs), "subscriptions_count")


check("Client.create_subscription, get_subscription, update_subscription, get_all_subs", subscriptions)


def webhook_logs():
    r = client.webhook_logs()
    want(r["success"] is True, f"answer {r}")
    eq(client.http.session.headers["Content-Type"], "application/json", "Content-Type restored")


check("Client.webhook_logs()", webhook_logs)


def platform_lists():
    ts = client.get_all_trans(page=1, per_page=50)
    want(s["tx"] in [t.id for t in ts.list_of_trans], "transaction listed")
    ns = client.get_all_nodes(page=1, per_page=50)
    want(s["deposit"] in [n.id for n in ns.list_of_nodes], "node listed")


check("Client.get_all_trans(page, per_page), get_all_nodes(page, per_page)", platform_lists)


def market_data():
    q = client.crypto_quotes()
    want("USDBTC" in q or "BTCUSD" in q, f"crypto_quotes {q}")
    m = client.crypto_market_data(limit=5, currency="BTC")
    want(m["success"] is True, f"crypto_market_data {m}")
    t = client.trade_market_data("AAPL")
    want(t["success"] is True, f"trade_market_data {t}")


check("Client.crypto_quotes, crypto_market_data(limit, currency), trade_market_data(ticker)", market_data)


def atms():
    r = client.locate_atms(zip="94114", rad="5", page=1, per_page=5)
    want(len(r["atms"]) >= 1, f"atms {r['atms']}")
    want(isinstance(r["atms"][0]["atmLocation"]["address"]["city"], str), "atms[0].atmLocation.address.city")


check("Client.locate_atms(zip, rad, page, per_page)", atms)


def public_key():
    k = client.issue_public_key(["USERS|POST", "USER|PATCH"], user_id=s["user"].id)
    want(isinstance(k["public_key"], str) and k["public_key"], f"public_key_obj {k}")
    eq(sorted(k["scope"]), sorted(["USER|PATCH", "USERS|POST"]), "scope")
    k = client.issue_public_key(["USERS|POST"])
    eq(k["scope"], ["USERS|POST"], "scope without a user")


check("Client.issue_public_key(scope, user_id) -> public_key_obj", public_key)


def institutions():
    r = client.get_all_inst()
    want(len(r["banks"]) >= 1 and r["banks"][0]["bank_code"], f"banks {r['banks'][:1]}")


check("Client.get_all_inst()", institutions)


def verifications():
    a = client.verify_address({"address_street": "1 Market St", "address_city": "San Francisco",
                               "address_subdivision": "CA", "address_country_code": "US", "address_postal_code": "94105"})
    eq(a["deliverability"], "usps_deliverable", "deliverability")
    eq(a["normalized_address"]["address_street"], "1 MARKET ST", "normalized_address.address_street")
    r = client.verify_routing_number({"routing_num": "084008426", "type": "ACH-US"})
    want(isinstance(r["bank_name"], str) and r["bank_name"], f"verify_routing_number {r}")


check("Client.verify_address(body), verify_routing_number(body)", verifications)


def reference():
    types = client.get_node_types()
    want("DEPOSIT-US" in json.dumps(types), f"get_node_types {types}")
    docs = client.get_user_document_types()
    want("SSN" in json.dumps(docs), f"get_user_document_types {docs}")
    ents = client.get_user_entity_types()
    want("M" in json.dumps(ents), f"get_user_entity_types {ents}")
    scopes = client.get_user_entity_scopes()
    want("Arts & Entertainment" in json.dumps(scopes), f"get_user_entity_scopes {scopes}")


check("Client.get_node_types, get_user_document_types, get_user_entity_types, get_user_entity_scopes", reference)

# ---- Refusals and re-authentication ----


def not_found():
    err = raises(api_errors.ObjectNotFound, lambda: s["user"].get_node("0" * 24))
    eq((err.error_code, err.http_code), ("404", "404"), "error_code, http_code")


check("User.get_node(unknown id) -> ObjectNotFound (404 / \"404\")", not_found)


def reauth():
    before = client.http.oauth_key
    ctl.advance("2h1m")
    n = s["user"].get_node(s["deposit"])  # 401 / "110", oauth(), retried
    eq(n.id, s["deposit"], "id")
    want(client.http.oauth_key != before, "a new oauth_key")


check("an expired oauth key (401 / \"110\"): the SDK re-authenticates and retries", reauth)


def duplicates():
    def person(email, phone):
        u = client.create_user({"logins": [{"email": email}], "phone_numbers": [phone], "legal_names": ["Dup User"]}, IP)
        u.oauth()
        u.update_info({"documents": [base_document(email, "Dup User", "333-22-4444")]})
        return u
    closing, open_ = person("dup1@example.com", "901.111.3333"), person("dup2@example.com", "901.111.4444")
    r = open_.get_duplicate_users()
    eq((r["user_id"], r["reason"]), (open_.id, "duplicate_document"), "user_id, reason")
    want(closing.id in r["open_users_id"], f"open_users_id {r['open_users_id']}")
    # Closing a user revokes its keys and a closed user gets none from
    # POST /oauth: the platform's key comes from the control API.
    ctl.set_permission(closing.id, "CLOSED")
    key = ctl.oauth_key(closing.id, FP2)
    client.update_headers(oauth_key=key)
    was = client.get_user(open_.id).body["permission"]
    r = closing.swap_duplicate_user({"swap_to_user_id": open_.id})
    eq((r["_id"], r["permission"]), (closing.id, was), "_id, permission of the swapped-in user")
    eq(client.get_user(open_.id).body["permission"], "CLOSED", "the open duplicate's permission after the swap")
    s["dup"] = open_


check("User.get_duplicate_users(), swap_duplicate_user(swap_to_user_id)", duplicates)

# ---- Funding a node from a test ----


def funding_trap():
    # Under -clock manual a dummy credit stays CREATED: a transfer that
    # counts on it is refused, and the refusal says why and what to do.
    user = s["user"]
    node = ctl.add_node(user.id, nickname="Trap")["_id"]
    r = user.dummy_tran(node, is_credit=True)
    body = {"to": {"type": "DEPOSIT-US", "id": s["deposit"]}, "amount": {"amount": 50, "currency": "USD"},
            "extra": {"ip": IP}}
    err = raises(api_errors.IncorrectValues, lambda: user.create_trans(node, body))
    eq((err.http_code, err.error_code), ("409", "400"), "http_code, error_code")
    for part in (f"dummy transaction {r['_id']}", "is still CREATED", "advance the clock or settle it",
                 f"/_fake/nodes/{node}/fund"):
        want(part in err.message, f"{part!r} not in the message {err.message!r}")
    settled = ctl.settle(r["_id"])
    eq(settled["status"], "SETTLED", "the dummy credit, settled")
    eq(ctl.node(node)["balance_cents"], 100_00, "balance_cents after settling")
    eq(user.create_trans(node, body).body["recent_status"]["status"], "CREATED", "the transfer, made")


check("the funding trap: a transfer counting on a CREATED dummy credit -> IncorrectValues naming it; settled, it goes",
      funding_trap)


def fund_node():
    user = s["user"]
    node = ctl.add_node(user.id, nickname="Funded by control")["_id"]
    funded = ctl.fund(node, 75_00)
    eq(funded["balance_cents"], 75_00, "balance_cents after fund")
    eq(user.get_node(node).body["info"]["balance"]["amount"], 75.0, "the balance the SDK reads")
    body = {"to": {"type": "DEPOSIT-US", "id": s["deposit"]}, "amount": {"amount": 75, "currency": "USD"},
            "extra": {"ip": IP}}
    eq(user.create_trans(node, body).body["recent_status"]["status"], "CREATED", "a transfer of all of it")
    eq(ctl.node(node)["available_cents"], 0, "available_cents with it promised")


check("Control.fund (POST /_fake/nodes/{id}/fund): the SDK reads the balance and can spend it", fund_node)

# ---- The SDK's own bugs, shown happening ----

sdk_bug(
    "User.batch_trans(node, body)",
    "it sends POST .../nodes/<node_id>batch-trans, without the slash before batch-trans: a route that does not exist "
    "(the fake reads it as .../nodes/{node_id}, which takes no POST)",
    lambda: s["user"].batch_trans(s["deposit"], {"transactions": [{"to": {"type": "ACH-US", "id": s["ach"]},
                                                                   "amount": {"amount": 1, "currency": "USD"},
                                                                   "extra": {"ip": IP}}]}),
    lambda e: isinstance(e, api_errors.SynapseError) and last_path().endswith(f"/nodes/{s['deposit']}batch-trans"),
)

sdk_bug(
    "User.oauth() after get_duplicate_users()",
    "get_duplicate_users and swap_duplicate_user overwrite user.body with their answer, which has no refresh_token",
    lambda: s["dup"].oauth(),
    lambda e: isinstance(e, KeyError) and e.args == ("refresh_token",),
)


def keyed():
    t = s["user"].create_trans(s["deposit"], {"to": {"type": "ACH-US", "id": s["ach"]}, "amount": {"amount": 1, "currency": "USD"},
                                              "extra": {"ip": IP}}, idempotency_key="compat-key-1")
    eq(t.body["amount"]["amount"], 1, "amount")
    eq(client.http.session.headers["X-SP-IDEMPOTENCY-KEY"], "compat-key-1", "the key left on the client's session")


check("User.create_trans(node, body, idempotency_key)", keyed)

sdk_bug(
    "User.create_trans(node, body) after a keyed call",
    "the idempotency key stays on the client's session and goes with every later request, so the next POST to the same route "
    "within 24 h is refused (409 / \"450\"); give each POST its own key",
    lambda: s["user"].create_trans(s["deposit"], {"to": {"type": "ACH-US", "id": s["ach"]},
                                                  "amount": {"amount": 2, "currency": "USD"}, "extra": {"ip": IP}}),
    lambda e: isinstance(e, api_errors.IdempotencyConflict) and e.error_code == "450",
)

finish()
