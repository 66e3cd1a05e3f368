"""ControlError carries the answer's error_code, http_code and reason; the
Control of a platform calls that platform's routes, its document reviews among
them."""

import pytest

import synapsefake
from synapsefake import Control, ControlError


def test_fields_from_an_envelope():
    env = {"success": False, "error_code": "410", "http_code": "409",
           "error": {"code": "illegal_status_change", "en": "Transaction is SETTLED; it cannot be queued."}}
    err = ControlError("POST", "/_fake/transactions/x/queue", 409, env)
    assert (err.status, err.error_code, err.http_code, err.code) == (409, "410", "409", "illegal_status_change")
    assert err.reason == err.message == "Transaction is SETTLED; it cannot be queued."
    assert err.envelope is env
    assert str(err) == ("POST /_fake/transactions/x/queue: HTTP 409, error_code 410, illegal_status_change: "
                        "Transaction is SETTLED; it cannot be queued.")


def test_a_body_that_is_not_json_is_the_reason():
    err = ControlError("GET", "/_fake/clock", 502, None, "bad gateway")
    assert (err.envelope, err.error_code, err.code, err.reason) == (None, None, None, "bad gateway")


def test_control_urls():
    assert Control("http://127.0.0.1:1/v3.1").control_root == "http://127.0.0.1:1/_fake"
    assert Control("http://127.0.0.1:1/").control_root == "http://127.0.0.1:1/_fake"
    p = Control("http://127.0.0.1:1/_fake/platforms/abc/")
    assert (p.origin, p.control_root) == ("http://127.0.0.1:1", "http://127.0.0.1:1/_fake/platforms/abc")
    assert Control("http://127.0.0.1:1").platform("a b").control_root == "http://127.0.0.1:1/_fake/platforms/a%20b"


@pytest.fixture(scope="module")
def server(request):
    try:
        srv = synapsefake.serve()
    except synapsefake.BinaryNotFound as err:
        pytest.skip(f"no synapsefake binary: {err}")
    yield srv
    srv.stop()


def test_a_refusal_over_http(server):
    p = server.add_platform()
    with pytest.raises(ControlError) as refused:
        p.fund("0123456789abcdef01234567", 100)
    err = refused.value
    assert (err.status, err.error_code, err.http_code, err.code) == (404, "404", "404", "unable_to_locate_node")
    assert err.reason == "Unable to locate node."
    assert err.path == f"/_fake/platforms/{p.client_id}/nodes/0123456789abcdef01234567/fund"
    with pytest.raises(ControlError) as refused:
        server.add_platform(client_id=p.client_id)
    assert (refused.value.error_code, refused.value.code) == ("410", "platform_exists")
    assert p.client_id in refused.value.reason
    p.delete()


def test_a_platforms_helpers_reach_its_control_api(server):
    p = server.add_platform(start="2026-04-14T10:00:00-04:00")
    user = p.add_user(legal_names=["Ada Lovelace"], fingerprint="fp")
    node = p.add_node(user["_id"], nickname="Checking")
    assert p.fund(node["_id"], 12_34)["balance_cents"] == 12_34
    assert p.oauth_key(user["_id"], "fp").startswith("oauth_")
    assert p.user(user["_id"])["_id"] == user["_id"]  # a Control method through the platform
    hook = p.wait_webhook(object_id=node["_id"], function="NODES|POST", timeout="1s")
    assert hook["object_type"] == "NODE"
    assert {h["function"] for h in p.webhooks()} == {"USERS|POST", "NODES|POST"}
    # The default platform (which holds the binary's seeded user) saw none of it.
    assert not {user["_id"], node["_id"]} & {h["object_id"] for h in server.control.webhooks()}
    p.delete()


def test_a_platforms_document_reviews(server):
    p = server.add_platform()
    user = p.add_user(documents=[
        {"kind": "virtual", "type": "SSN", "value": "2222", "status": "REVIEWING"},
        {"kind": "physical", "type": "GOVT_ID", "value": "data:image/png;base64,SUQ=", "status": "REVIEWING"}])
    subs = {sd["kind"]: sd for sd in user["documents"][0]["sub_documents"]}
    assert {k: sd["status"] for k, sd in subs.items()} == {"virtual": "SUBMITTED|REVIEWING",
                                                           "physical": "SUBMITTED|REVIEWING"}
    assert p.review_document(user["_id"], subs["virtual"]["id"], "VALID")["permission"] == "RECEIVE"
    with pytest.raises(ControlError) as refused:
        p.review_document(user["_id"], subs["physical"]["id"], "GREAT")
    err = refused.value
    assert (err.status, err.error_code, err.http_code, err.code) == (400, "200", "400", "invalid_status")
    assert err.path == f"/_fake/platforms/{p.client_id}/users/{user['_id']}/documents/{subs['physical']['id']}/review"
    with pytest.raises(ControlError) as refused:
        p.review_documents(user["_id"], "GREAT")
    assert refused.value.code == "invalid_status"
    assert p.user(user["_id"])["permission"] == "RECEIVE"
    after = p.review_documents(user["_id"], "VALID")
    assert (after["permission"], after["documents"][0]["permission_scope"]) == ("SEND-AND-RECEIVE",
                                                                                "SEND|RECEIVE|1000|DAILY")
    assert [h["permission"] for h in after["permission_history"]] == ["UNVERIFIED", "RECEIVE", "SEND-AND-RECEIVE"]
    p.delete()


def test_return_transaction_and_its_first_name(server):
    p = server.add_platform()
    world = p.load_world({
        "users": [{"name": "ann", "legal_names": ["Ann"], "permission": "SEND-AND-RECEIVE", "nodes": [
            {"name": "checking", "balance": "500.00"},
            {"name": "bank", "type": "ACH-US", "account_num": "123456789", "routing_num": "021000021"}]}],
        "transactions": [{"name": "a", "from": "checking", "to": "bank", "amount": 10},
                         {"name": "b", "from": "checking", "to": "bank", "amount": 11}]})
    tx = world["transactions"]
    for ret, tx_id, code in [(p.control.return_transaction, tx["a"], "R01"), (p.control.return_, tx["b"], "R02")]:
        p.settle(tx_id)
        returned = ret(tx_id, code)
        assert (returned["_id"], returned["status"], returned["code"]) == (tx_id, "RETURNED", code)
    p.delete()
