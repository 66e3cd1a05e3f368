"""Fixtures of the example suite: an HTTP client of the fake's API on the
test's platform, and a signed-up user. The platform itself is the fixture
``synapsefake`` that the synapsefake package's pytest plugin gives every test
that asks for it (pip install synapsefake: nothing to configure).

Copy this folder beside your own tests: your SDK would take
synapsefake.base_url, synapsefake.client_id and synapsefake.client_secret
where these examples use requests.
"""

from typing import Any, Dict, Optional

import pytest
import requests

from synapsefake import Platform

JSON = Dict[str, Any]


class API:
    """The v3.1 API of one platform over HTTP, as an integration calls it:
    X-SP-GATEWAY with the platform's client id and secret, X-SP-USER with the
    user's OAuth key and the device's fingerprint, X-SP-USER-IP."""

    def __init__(self, platform: Platform, fingerprint: str = "device-1") -> None:
        self.base_url = platform.base_url
        self.gateway = platform.gateway
        self.fingerprint = fingerprint
        self.key = ""
        self.http = requests.Session()

    def call(self, method: str, path: str, body: Optional[JSON] = None, fingerprint: Optional[str] = None,
             key: Optional[str] = None) -> requests.Response:
        """One request; answers the requests.Response (no status check)."""
        headers = {
            "X-SP-GATEWAY": self.gateway,
            "X-SP-USER": f"{self.key if key is None else key}|{fingerprint or self.fingerprint}",
            "X-SP-USER-IP": "127.0.0.1",
        }
        return self.http.request(method, self.base_url + path, json=body, headers=headers, timeout=10)

    def ok(self, method: str, path: str, body: Optional[JSON] = None, **kw: Any) -> Any:
        """One request that must answer 200; answers its JSON."""
        r = self.call(method, path, body, **kw)
        assert r.status_code == 200, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    def sign_up(self, email: str = "ann@example.com", phone: str = "901.111.1111", name: str = "Ann Example") -> JSON:
        """The sign-up flow of docs/api.md: POST /users with no key yet, then
        POST /oauth/{user_id} with the refresh token. Answers the user; the
        API holds the user's key from then on."""
        user = self.ok("POST", "/users", {
            "logins": [{"email": email}],
            "phone_numbers": [phone],
            "legal_names": [name],
            "extra": {"supp_id": "my-user-42", "cip_tag": 1, "is_business": False},
        }, key="")
        self.sign_in(user)
        return dict(user)

    def sign_in(self, user: JSON) -> JSON:
        """POST /oauth/{user_id} with the refresh token: a fresh key."""
        oauth = self.ok("POST", f"/oauth/{user['_id']}", {"refresh_token": user["refresh_token"]}, key="")
        self.key = oauth["oauth_key"]
        return dict(oauth)

    def add_node(self, user_id: str, body: JSON) -> JSON:
        """POST /users/{user_id}/nodes: answers the first node of the page."""
        return dict(self.ok("POST", f"/users/{user_id}/nodes", body)["nodes"][0])

    def transfer(self, user_id: str, from_node: str, to_type: str, to_id: str, dollars: float,
                 note: str = "Rent") -> JSON:
        """POST .../nodes/{node_id}/trans: answers the transaction (CREATED)."""
        return dict(self.ok("POST", f"/users/{user_id}/nodes/{from_node}/trans", {
            "to": {"type": to_type, "id": to_id},
            "amount": {"amount": dollars, "currency": "USD"},
            "extra": {"ip": "127.0.0.1", "note": note},
        }))


@pytest.fixture
def api(synapsefake: Platform) -> API:
    """The API of this test's platform."""
    return API(synapsefake)


@pytest.fixture
def account(api: API, synapsefake: Platform) -> Dict[str, JSON]:
    """A signed-up user with a funded checking node ($250.00) and an ACH-US node
    (their bank account): a dict of user, checking and bank."""
    user = api.sign_up()
    checking = api.add_node(user["_id"], {"type": "DEPOSIT-US", "info": {"nickname": "Checking"}})
    bank = api.add_node(user["_id"], {"type": "ACH-US", "info": {
        "nickname": "Landlord", "account_num": "123456786", "routing_num": "051000017",
        "type": "PERSONAL", "class": "CHECKING"}})
    synapsefake.fund(checking["_id"], 250_00)  # the API has no way to put money in at once
    return {"user": user, "checking": checking, "bank": bank}
