"""Sign-up over HTTP, as an app does it, and the MFA path (docs/api.md, "The sign-up flow")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from synapsefake import Platform

if TYPE_CHECKING:
    from conftest import API


def test_sign_up_then_add_a_node(api: API, synapsefake: Platform) -> None:
    user = api.sign_up()
    assert user["permission"] == "UNVERIFIED"
    assert api.key.startswith("oauth_")

    node = api.add_node(user["_id"], {"type": "DEPOSIT-US", "info": {"nickname": "Checking"}})
    assert node["info"]["nickname"] == "Checking"

    # The control API sees what the app made over HTTP.
    assert [n["_id"] for n in synapsefake.user_nodes(user["_id"])] == [node["_id"]]


def test_a_new_device_answers_mfa(api: API, synapsefake: Platform) -> None:
    user = api.sign_up()
    oauth = f"/oauth/{user['_id']}"
    refresh = {"refresh_token": user["refresh_token"]}

    # From a device the user never used: 202 / error_code "10" with the phone numbers.
    r = api.call("POST", oauth, refresh, fingerprint="device-2", key="")
    assert (r.status_code, r.json()["error_code"]) == (202, "10")
    phone = r.json()["phone_numbers"][0]

    # The app picks a phone number: the fake "sends" a PIN (202 with a message).
    r = api.call("POST", oauth, dict(refresh, phone_number=phone), fingerprint="device-2", key="")
    assert r.status_code == 202, r.text

    # The user types it in; the control API tells the test what it was.
    pin = synapsefake.mfa_pin(user["_id"])
    answer = api.ok("POST", oauth, dict(refresh, validation_pin=pin), fingerprint="device-2", key="")
    assert answer["user_id"] == user["_id"] and answer["oauth_key"]


def test_forced_mfa_on_a_known_device(api: API, synapsefake: Platform) -> None:
    user = api.sign_up()
    synapsefake.force_mfa(user["_id"])  # POST /_fake/users/{user_id}/force-mfa

    r = api.call("POST", f"/oauth/{user['_id']}", {"refresh_token": user["refresh_token"]}, key="")
    assert (r.status_code, r.json()["error_code"]) == (202, "10"), r.text
