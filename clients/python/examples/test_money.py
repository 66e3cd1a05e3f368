"""Money moving: an ACH transfer that settles with the clock, returns, and a webhook."""

from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import threading
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Tuple

import pytest

from synapsefake import Platform

if TYPE_CHECKING:
    from conftest import API, JSON


def test_an_ach_debit_settles_the_next_business_day(api: API, account: Dict[str, JSON], synapsefake: Platform) -> None:
    user_id = account["user"]["_id"]
    tx = api.transfer(user_id, account["checking"]["_id"], "ACH-US", account["bank"]["_id"], 10.00)
    assert tx["recent_status"]["status"] == "CREATED"

    synapsefake.advance("24h")  # the platform starts on a Tuesday, 10:00 ET
    api.sign_in(account["user"])  # the key lived 2 hours: renew it with the refresh token

    got = api.ok("GET", f"/users/{user_id}/nodes/{account['checking']['_id']}/trans/{tx['_id']}")
    assert got["recent_status"]["status"] == "SETTLED"
    assert synapsefake.node(account["checking"]["_id"])["balance_cents"] == 240_00


@pytest.mark.parametrize("code", ["R01", "R02"])
def test_a_settled_transfer_comes_back_returned(api: API, account: Dict[str, JSON], synapsefake: Platform,
                                                code: str) -> None:
    user_id, checking = account["user"]["_id"], account["checking"]["_id"]
    tx = api.transfer(user_id, checking, "ACH-US", account["bank"]["_id"], 25.00)
    assert synapsefake.settle(tx["_id"])["status"] == "SETTLED"
    assert synapsefake.node(checking)["balance_cents"] == 225_00

    returned = synapsefake.return_transaction(tx["_id"], code)
    assert (returned["status"], returned["code"]) == ("RETURNED", code)

    # The app sees the return over the API, and the money is back.
    got = api.ok("GET", f"/users/{user_id}/nodes/{checking}/trans/{tx['_id']}")
    assert got["recent_status"]["status"] == "RETURNED"
    assert synapsefake.node(checking)["balance_cents"] == 250_00


class Receiver(http.server.ThreadingHTTPServer):
    """A webhook receiver on a free loopback port that keeps every POST."""

    def __init__(self) -> None:
        self.received: List[Tuple[Dict[str, str], Any]] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the handler's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.received.append((dict(self.headers), json.loads(body)))
                self.send_response(200)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.shutdown()
    r.server_close()


def test_a_subscription_gets_the_webhook(api: API, synapsefake: Platform, receiver: Receiver) -> None:
    sub = api.ok("POST", "/subscriptions", {"scope": ["USERS|POST", "NODES|POST"], "url": receiver.url})
    assert sub["is_active"] is True

    user = api.sign_up()
    hook = synapsefake.wait_webhook(object_id=user["_id"], function="USERS|POST", timeout="2s")
    assert hook["object_type"] == "USER"
    assert hook["payload"]["_rest"]["_id"] == user["_id"]

    synapsefake.flush()  # every delivery in flight has reached the receiver
    posted = [(h, b) for h, b in receiver.received if b["_id"]["$oid"] == user["_id"]]
    assert len(posted) == 1
    headers, _ = posted[0]
    # Signed with this platform's own secret: HMAC-SHA256 of "<object id>+<client id>".
    want = hmac.new(synapsefake.client_secret.encode(), f"{user['_id']}+{synapsefake.client_id}".encode(),
                    hashlib.sha256).hexdigest()
    assert headers["X-Synapse-Signature-Sha256"] == want
