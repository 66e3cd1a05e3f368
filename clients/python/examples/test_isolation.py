"""Each test has a platform of its own: its own users, its own clock. And a
refused control call says why."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import pytest

from synapsefake import DEFAULT_START_TIME, ControlError, Platform

if TYPE_CHECKING:
    from conftest import API

START = "2026-04-14T10:00:00-04:00"
START_MS = 1776175200000  # the same instant in milliseconds


def _only_user(api: API) -> None:
    user = api.sign_up()
    listed = api.ok("GET", "/users")
    assert [u["_id"] for u in listed["users"]] == [user["_id"]]


def test_a_user_of_my_own(api: API) -> None:
    _only_user(api)


def test_another_user_of_my_own(api: API) -> None:
    _only_user(api)


def test_no_other_platform_is_alive(synapsefake: Platform) -> None:
    # One binary per session (per xdist worker), whose tests run one at a
    # time: the server holds its default platform and this test's, no other.
    ids = [p["client_id"] for p in synapsefake.platforms()]
    assert ids[1:] == [synapsefake.client_id]


@pytest.mark.synapsefake(start=START)
def test_my_clock_moves(synapsefake: Platform) -> None:
    assert synapsefake.now() == DEFAULT_START_TIME  # an aware datetime, UTC
    assert synapsefake.now_ms() == START_MS
    synapsefake.advance("48h")  # a Go duration, a timedelta or seconds
    after = synapsefake.advance(datetime.timedelta(minutes=30))
    assert after == synapsefake.now() == DEFAULT_START_TIME + datetime.timedelta(hours=48, minutes=30)
    assert synapsefake.advance(90) == after + datetime.timedelta(seconds=90)
    assert synapsefake.now_ms() == START_MS + (48 * 60 + 30) * 60 * 1000 + 90_000


@pytest.mark.synapsefake(start=START)
def test_my_clock_did_not_move(synapsefake: Platform) -> None:
    # test_my_clock_moves advanced its own platform's clock, not this one.
    assert synapsefake.now_ms() == START_MS


@pytest.mark.parametrize("synapsefake", [{"start": "2026-12-31T23:00:00Z"}], indirect=True)
def test_a_start_as_a_fixture_parameter(synapsefake: Platform) -> None:
    assert synapsefake.now() == datetime.datetime(2026, 12, 31, 23, tzinfo=datetime.timezone.utc)


def test_a_refused_control_call_says_why(synapsefake: Platform) -> None:
    with pytest.raises(ControlError) as refused:
        synapsefake.settle("0123456789abcdef01234567")
    err = refused.value
    assert (err.error_code, err.http_code, err.code) == ("404", "404", "unable_to_locate_transaction")
    assert err.reason == "Unable to locate transaction."
    assert "settle" in str(err) and "unable_to_locate_transaction" in str(err)  # what pytest prints

    user = synapsefake.add_user()
    with pytest.raises(ControlError, match="invalid_duration") as refused:
        synapsefake.advance("-1h")
    assert refused.value.error_code == "200" and refused.value.status == 400
    assert refused.value.reason == 'duration must be a non-negative Go duration such as "90m" or "24h", got "-1h".'
    assert synapsefake.user(user["_id"])["_id"] == user["_id"]  # a refusal changes nothing
