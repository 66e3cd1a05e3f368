"""A client for synapsefake's control API (/_fake/), the Go test helpers over HTTP.

Part of the synapsefake package (clients/python; it was
compat/python/synapsefake_control.py). Standard library only (urllib.request
and json), for Python 3.8 or later::

    from synapsefake.control import Control, ControlError

    ctl = Control("http://127.0.0.1:8080")   # the API's base URL (.../v3.1) works too
    user = ctl.add_user(legal_names=["Ada Lovelace"])
    node = ctl.add_node(user["_id"], nickname="Checking", balance_cents=10_000)
    ctl.fund(node["_id"], 2_500)             # the node after: balance_cents 12500
    ctl.advance("24h")                       # the fake's clock, and every transfer with it
    hook = ctl.wait_webhook(object_id=node["_id"], function="NODES|POST")

Each method is one endpoint of docs/control-api.md and returns the field its
answer names: a user, a node, a transaction, a list, the clock's time in
milliseconds. A refusal raises ControlError, which carries the API's error
envelope (error_code, http_code, error.code, error.en) and the HTTP status.
Platforms (POST /_fake/platforms) are methods too, and platform(client_id)
is the Control of one of them (/_fake/platforms/{client_id}/...).
Ids are the strings the fake gave; amounts are integer cents; durations are Go
durations ("90m", "24h"), datetime.timedelta or seconds; times are aware
datetimes in UTC (now(), advance()), or milliseconds since the epoch from
now_ms(). Every public name is typed (the package has a py.typed marker):
answers are JSON objects, Dict[str, Any].
"""

# mypy: disable-error-code="no-any-return"
# (the answers are JSON: each method returns a field of one, typed as its route documents it)
import datetime
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import __version__

__all__ = ["Control", "ControlError", "Duration", "JSONObject", "Start"]

JSONObject = Dict[str, Any]
"""A JSON object of an answer: a user, a node, a transaction, a webhook..."""

Duration = Union[str, datetime.timedelta, int, float]
"""A duration: a Go duration string ("24h", "90m"), a datetime.timedelta, or seconds."""

Start = Union[str, datetime.datetime]
"""A platform's start: an RFC 3339 instant, an aware datetime, or "default"."""

# pytest leaves this module's frames out of a failed test's traceback: a
# refused call points at the test's line that made it.
__tracebackhide__ = True

_TOKEN_HEADER = "X-Fake-Control-Token"
# The client's name and version, sent as X-Synapsefake-Client: the fake
# phrases its hints (in failed waits, in the journal's reasons) as calls of
# this package rather than Go's (docs/control-api.md).
_CLIENT_HEADER = "X-Synapsefake-Client"
CLIENT = "python/" + __version__


class ControlError(Exception):
    """A refusal of the control API.

    status is the HTTP status; error_code and http_code are the envelope's
    strings ("404", "404"); code is error.code (e.g. "unable_to_locate_node")
    and message (also reason) is error.en, why the fake refused; envelope is
    the whole decoded body (None when the body was not JSON); method and path
    name the call.
    """

    def __init__(self, method: str, path: str, status: int, envelope: Any, text: str = "") -> None:
        self.method = method
        self.path = path
        self.status = status
        self.envelope: Optional[JSONObject] = envelope if isinstance(envelope, dict) else None
        env: JSONObject = self.envelope or {}
        err: JSONObject = env["error"] if isinstance(env.get("error"), dict) else {}
        self.error_code: Optional[str] = env.get("error_code")
        self.http_code: Optional[str] = env.get("http_code")
        self.code: Optional[str] = err.get("code")
        self.message: str = err.get("en") or text
        super().__init__(
            f"{method} {path}: HTTP {status}, error_code {self.error_code}, {self.code}: {self.message}"
        )

    @property
    def reason(self) -> str:
        """Why the fake refused the call: the envelope's error.en."""
        return self.message


def _duration(d: Duration) -> str:
    """A Go duration string from a str, a timedelta or a number of seconds."""
    if isinstance(d, str):
        return d
    if isinstance(d, datetime.timedelta):
        d = d.total_seconds()
    if isinstance(d, (int, float)) and not isinstance(d, bool):
        return f"{int(round(d * 1000))}ms"
    raise TypeError(f"a duration is a Go duration string (\"24h\"), a timedelta or seconds, not {d!r}")


def _datetime(ms: int) -> datetime.datetime:
    """An aware datetime in UTC from milliseconds since the epoch, to the millisecond."""
    return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms)


def _fields(**kw: Any) -> JSONObject:
    """The keyword arguments that were given (not None), as a request body."""
    return {k: v for k, v in kw.items() if v is not None}


class Control:
    """The control API of one synapsefake server, or of one of its platforms.

    base_url is the server's origin (http://127.0.0.1:8080), the API's base
    URL the banner prints (http://127.0.0.1:8080/v3.1) or a platform's
    control_url (http://127.0.0.1:8080/_fake/platforms/{client_id}), whose
    control API the methods then call. token is the server's -control-token,
    when it was started with one. timeout bounds each call in seconds (a
    webhook wait adds its own timeout to it).
    """

    def __init__(self, base_url: str, token: Optional[str] = None, timeout: float = 10) -> None:
        root = base_url.rstrip("/")
        if root.endswith("/v3.1"):
            root = root[: -len("/v3.1")]
        parts = urllib.parse.urlsplit(root)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        # control_root is where the control routes are: /_fake for the
        # server's default platform, /_fake/platforms/{client_id} for another.
        self.control_root = root if parts.path.startswith("/_fake") else self.origin + "/_fake"
        self.token = token
        self.timeout = timeout

    # --- the transport ---

    def call(self, method: str, path: str, body: Any = None, query: Optional[Mapping[str, Any]] = None,
             timeout: Optional[float] = None) -> Any:
        """Calls one control endpoint (path under /_fake/, e.g. "users") and
        returns the decoded answer. body is a dict (sent as JSON), bytes or a
        str (sent as they are). A refusal raises ControlError."""
        full = self.control_root[len(self.origin):] + "/" + path.lstrip("/")
        query = _fields(**(query or {}))
        if query:
            full += "?" + urllib.parse.urlencode(query)
        data: Optional[bytes] = None
        if isinstance(body, (bytes, bytearray)):
            data = bytes(body)
        elif isinstance(body, str):
            data = body.encode()
        elif body is not None:
            data = json.dumps(body).encode()
        headers: Dict[str, str] = {"Accept": "application/json", _CLIENT_HEADER: CLIENT}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers[_TOKEN_HEADER] = self.token
        req = urllib.request.Request(self.origin + full, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.timeout) as resp:
                status, text = resp.status, resp.read().decode()
        except urllib.error.HTTPError as err:
            status, text = err.code, err.read().decode()
        try:
            answer = json.loads(text) if text else None
        except ValueError:
            answer = None
        if status != 200:
            raise ControlError(method, full, status, answer, text)
        if answer is None:
            raise ControlError(method, full, status, None, f"the answer is not JSON: {text[:200]}")
        return answer

    def _get(self, path: str, **query: Any) -> Any:
        return self.call("GET", path, query=query)

    def _post(self, path: str, body: Any = None) -> Any:
        return self.call("POST", path, body if body else None)

    # --- users, nodes, subnets, keys ---

    def add_user(self, email: Optional[str] = None, phone_numbers: Optional[Sequence[str]] = None,
                 legal_names: Optional[Sequence[str]] = None, fingerprint: Optional[str] = None,
                 supp_id: Optional[str] = None, is_business: Optional[bool] = None, permission: Optional[str] = None,
                 documents: Optional[Sequence[Mapping[str, Any]]] = None) -> JSONObject:
        """AddUser: a user with its refresh token; every field is optional.
        documents are sub-documents filed under one base document, each
        {"kind": "physical"|"social"|"virtual", "type": "SSN", "value": "2222",
        "status": "VALID"}: without a status one goes under review as an API
        upload does (the sandbox's test values decide it)."""
        return self._post("users", _fields(email=email, phone_numbers=phone_numbers, legal_names=legal_names,
                                           fingerprint=fingerprint, supp_id=supp_id, is_business=is_business,
                                           permission=permission, documents=documents))["user"]

    def users(self, limit: Optional[int] = None) -> List[JSONObject]:
        """The newest users, newest first (at most limit, 100 by default)."""
        return self._get("users", limit=limit)["users"]

    def user(self, user_id: str) -> JSONObject:
        """User: one user."""
        return self._get(f"users/{_seg(user_id)}")["user"]

    def user_nodes(self, user_id: str) -> List[JSONObject]:
        """The user's active nodes, oldest first, each with balance_cents and available_cents."""
        return self._get(f"users/{_seg(user_id)}/nodes")["nodes"]

    def add_node(self, user_id: str, type: Optional[str] = None, nickname: Optional[str] = None,  # noqa: A002
                 balance_cents: Optional[int] = None, account_num: Optional[str] = None,
                 routing_num: Optional[str] = None, supp_id: Optional[str] = None) -> JSONObject:
        """AddNode: a node of the user (DEPOSIT-US by default), funded with balance_cents."""
        return self._post(f"users/{_seg(user_id)}/nodes", _fields(
            type=type, nickname=nickname, balance_cents=balance_cents, account_num=account_num,
            routing_num=routing_num, supp_id=supp_id))["node"]

    def node(self, node_id: str) -> JSONObject:
        """Node: one node with its current (balance_cents) and available (available_cents) balance."""
        return self._get(f"nodes/{_seg(node_id)}")["node"]

    def fund(self, node_id: str, amount_cents: int) -> JSONObject:
        """Fund: adds money to a node at once (no transaction, no webhook); returns the node after."""
        return self._post(f"nodes/{_seg(node_id)}/fund", {"amount_cents": amount_cents})["node"]

    def transactions(self, user_id: Optional[str] = None, node_id: Optional[str] = None,
                     limit: Optional[int] = None) -> List[JSONObject]:
        """The newest transactions of a user (sent or received) or of a node, newest first."""
        if user_id is not None and node_id is None:
            owner = f"users/{_seg(user_id)}"
        elif node_id is not None and user_id is None:
            owner = f"nodes/{_seg(node_id)}"
        else:
            raise TypeError("give exactly one of user_id and node_id")
        return self._get(f"{owner}/transactions", limit=limit)["transactions"]

    def add_subnet(self, user_id: str, node_id: str, nickname: Optional[str] = None,
                   account_class: Optional[str] = None, status: Optional[str] = None) -> JSONObject:
        """AddSubnet: an account number (CHECKING, SAVINGS) or a card (CARD), numbers in full."""
        return self._post(f"users/{_seg(user_id)}/nodes/{_seg(node_id)}/subnets", _fields(
            nickname=nickname, account_class=account_class, status=status))["subnet"]

    def oauth_key(self, user_id: str, fingerprint: str, scopes: Optional[Sequence[str]] = None) -> str:
        """OAuthKey: a key for the user on the fingerprint (every user-level scope by default)."""
        return self._post(f"users/{_seg(user_id)}/oauth", _fields(fingerprint=fingerprint, scopes=scopes))["oauth_key"]

    def force_mfa(self, user_id: str) -> None:
        """ForceMFA: the user's next sign-in asks for a PIN."""
        self._post(f"users/{_seg(user_id)}/force-mfa")

    def mfa_pin(self, user_id: str) -> str:
        """MFAPin: the PIN the fake sent the user."""
        return self._get(f"users/{_seg(user_id)}/mfa-pin")["pin"]

    def set_permission(self, user_id: str, permission: str) -> JSONObject:
        """SetPermission: the platform's change of a user's permission; returns the user."""
        return self._post(f"users/{_seg(user_id)}/permission", {"permission": permission})["user"]

    def review_document(self, user_id: str, document_id: str, status: str) -> JSONObject:
        """ReviewDocument: one sub-document of the user (document_id is the
        sub-document's id) takes status ("VALID", "INVALID", "BLACKLIST",
        "REVIEWING", "MFA_PENDING", "SUBMITTED" or the wire's
        "SUBMITTED|VALID"...); returns the user, its documents and
        permission after."""
        return self._post(f"users/{_seg(user_id)}/documents/{_seg(document_id)}/review",
                          {"status": status})["user"]

    def review_documents(self, user_id: str, status: str) -> JSONObject:
        """ReviewDocuments: every sub-document of the user still under review
        (SUBMITTED|REVIEWING or SUBMITTED|MFA_PENDING) takes status; returns
        the user after."""
        return self._post(f"users/{_seg(user_id)}/documents/review", {"status": status})["user"]

    def add_subscription(self, url: str, scopes: Optional[Sequence[str]] = None) -> JSONObject:
        """AddSubscription: webhooks for url (all eight scopes by default)."""
        return self._post("subscriptions", _fields(url=url, scopes=scopes))["subscription"]

    def load_world(self, world: Union[Mapping[str, Any], str, bytes]) -> Dict[str, str]:
        """LoadWorld: a world file (a dict, or its JSON as str or bytes); returns names to ids."""
        return self.call("POST", "world", world)["world"]

    # --- the clock ---

    def now(self) -> datetime.datetime:
        """The fake's time, an aware datetime in UTC (Go's Now())."""
        return _datetime(self.now_ms())

    def now_ms(self) -> int:
        """The fake's time, in milliseconds since the epoch (what GET /_fake/clock answers)."""
        ms: int = self._get("clock")["now"]
        return ms

    def advance(self, duration: Duration) -> datetime.datetime:
        """Advance: moves the clock (and everything due) by a Go duration ("24h"),
        a timedelta or a number of seconds; returns the time after, as now() does."""
        return _datetime(self._post("clock/advance", {"duration": _duration(duration)})["now"])

    def advance_to_next_business_day(self) -> datetime.datetime:
        """AdvanceToNextBusinessDay; returns the time after, as now() does."""
        return _datetime(self._post("clock/next-business-day")["now"])

    def advance_to_cutoff(self, cutoff: str) -> datetime.datetime:
        """AdvanceToCutoff: "ach", "same-day" or "wire"; returns the time after, as now() does."""
        return _datetime(self._post("clock/cutoff", {"cutoff": cutoff})["now"])

    # --- transactions ---

    def transaction(self, tx_id: str) -> JSONObject:
        """Transaction: its status, code, amount_cents, nodes and timeline."""
        return self._get(f"transactions/{_seg(tx_id)}")["transaction"]

    def _move(self, tx_id: str, move: str, body: Optional[JSONObject] = None) -> JSONObject:
        return self._post(f"transactions/{_seg(tx_id)}/{move}", body)["transaction"]

    def settle(self, tx_id: str) -> JSONObject:
        """Settle: every remaining step to SETTLED; returns the transaction."""
        return self._move(tx_id, "settle")

    def return_transaction(self, tx_id: str, code: str, late: bool = False) -> JSONObject:
        """Return with an ACH R.., card IR.. or wire WR.. code (late: past the code's window)."""
        return self._move(tx_id, "return", _fields(code=code, late=late or None))

    def return_(self, tx_id: str, code: str, late: bool = False) -> JSONObject:
        """return_transaction under its first name."""
        return self.return_transaction(tx_id, code, late=late)

    def schedule_return(self, tx_id: str, code: str, after: Optional[Duration] = None,
                        late: bool = False) -> JSONObject:
        """Go's Return with AfterSettlement: returned with code a Go duration after it settles."""
        return self._move(tx_id, "schedule-return", _fields(
            code=code, after=None if after is None else _duration(after), late=late or None))

    def queue(self, tx_id: str, code: Optional[str] = None) -> JSONObject:
        """Queue: CREATED to QUEUED-BY-SYNAPSE (or -BY-RECEIVER, by code)."""
        return self._move(tx_id, "queue", _fields(code=code))

    def release(self, tx_id: str) -> JSONObject:
        """Release: a queued transaction back to CREATED."""
        return self._move(tx_id, "release")

    def cancel(self, tx_id: str, code: Optional[str] = None) -> JSONObject:
        """Cancel a CREATED or queued transaction."""
        return self._move(tx_id, "cancel", _fields(code=code))

    def advance_transaction(self, tx_id: str, status: str) -> JSONObject:
        """AdvanceTransaction: one step, to status (e.g. "PROCESSING-DEBIT")."""
        return self._move(tx_id, "advance", {"status": status})

    def dishonor_return(self, tx_id: str, code: str) -> JSONObject:
        """DishonorReturn: the originator dishonors a return (R61, R62, R67-R70)."""
        return self._move(tx_id, "dishonor", {"code": code})

    def contest_dishonor(self, tx_id: str, code: str) -> JSONObject:
        """ContestDishonor: the receiving bank contests a dishonored return (R71-R77)."""
        return self._move(tx_id, "contest", {"code": code})

    def win_dispute(self, tx_id: str) -> JSONObject:
        """WinDispute; returns the answer: transaction, dispute_status, dispute_credit_transaction_id."""
        return self._dispute(tx_id, "won")

    def lose_dispute(self, tx_id: str) -> JSONObject:
        """LoseDispute; returns the answer as win_dispute does."""
        return self._dispute(tx_id, "lost")

    def _dispute(self, tx_id: str, outcome: str) -> JSONObject:
        a = self._post(f"transactions/{_seg(tx_id)}/dispute", {"outcome": outcome})
        return {k: a[k] for k in ("transaction", "dispute_status", "dispute_credit_transaction_id")}

    # --- cards ---

    def card_authorization(self, subnet_id: str, amount_cents: int, merchant: Optional[str] = None,
                           foreign: Optional[bool] = None, cash: Optional[bool] = None,
                           decline_with: Optional[str] = None, hold: Optional[bool] = None,
                           partial_approval_allowed: Optional[bool] = None) -> JSONObject:
        """CardAuthorization: a swipe of the card subnet; a decline is a RETURNED transaction with its IR code."""
        return self._post(f"subnets/{_seg(subnet_id)}/authorize", _fields(
            amount_cents=amount_cents, merchant=merchant, foreign=foreign, cash=cash,
            decline_with=decline_with, hold=hold, partial_approval_allowed=partial_approval_allowed))["transaction"]

    def force_post(self, subnet_id: str, amount_cents: int, merchant: Optional[str] = None,
                   foreign: Optional[bool] = None, cash: Optional[bool] = None) -> JSONObject:
        """ForcePost: a card debit with no authorization."""
        return self._post(f"subnets/{_seg(subnet_id)}/force-post", _fields(
            amount_cents=amount_cents, merchant=merchant, foreign=foreign, cash=cash))["transaction"]

    def refund_card(self, subnet_id: str, amount_cents: int, merchant: Optional[str] = None) -> JSONObject:
        """RefundCard: a merchant's credit to the card."""
        return self._post(f"subnets/{_seg(subnet_id)}/refund", _fields(
            amount_cents=amount_cents, merchant=merchant))["transaction"]

    def increment_authorization(self, tx_id: str, amount_cents: int) -> JSONObject:
        """IncrementAuthorization: the hold grows by amount_cents."""
        return self._move(tx_id, "increment", {"amount_cents": amount_cents})

    def reverse_authorization(self, tx_id: str, amount_cents: Optional[int] = None) -> JSONObject:
        """ReverseAuthorization: part of the hold, or all of it (amount_cents None)."""
        return self._move(tx_id, "reverse", _fields(amount_cents=amount_cents))

    def clear_authorization(self, tx_id: str, amount_cents: Optional[int] = None) -> JSONObject:
        """ClearAuthorization: settles the hold for amount_cents (the held amount when None)."""
        return self._move(tx_id, "clear", _fields(amount_cents=amount_cents))

    # --- returns planned ahead ---

    def add_return_rule(self, code: Optional[str] = None, node_id: Optional[str] = None,
                        account_num: Optional[str] = None, amount_cents: Optional[int] = None,
                        note: Optional[str] = None, queue: Optional[bool] = None, after: Optional[Duration] = None,
                        late: Optional[bool] = None) -> List[JSONObject]:
        """AddReturnRule: transactions that match are returned (or queued); returns the rules in force."""
        return self._post("return-rules", _fields(
            code=code, node_id=node_id, account_num=account_num, amount_cents=amount_cents, note=note,
            queue=queue, after=None if after is None else _duration(after), late=late))["rules"]

    def return_rules(self) -> List[JSONObject]:
        """ReturnRules: the rules in force."""
        return self._get("return-rules")["rules"]

    def clear_return_rules(self) -> None:
        """ClearReturnRules."""
        self.call("DELETE", "return-rules")

    # --- faults ---

    def fail_next(self, method: str, route: str, error_code: str, times: Optional[int] = None) -> None:
        """FailNext: the next call(s) of method on route (as the spec writes it: "/users/{user_id}/nodes") answer error_code."""
        self._post("faults", _fields(method=method, route=route, error_code=error_code, times=times))

    def slow_next(self, method: str, route: str, delay: Duration, times: Optional[int] = None) -> None:
        """SlowNext: the next call(s) of method on route wait delay (a Go duration) before answering."""
        self._post("faults/slow", _fields(method=method, route=route, delay=_duration(delay), times=times))

    # --- webhooks ---

    def webhooks(self, limit: Optional[int] = None) -> List[JSONObject]:
        """The captured webhooks, oldest first: all of them (read page by page),
        or the newest limit."""
        if limit is not None:
            return self._get("webhooks", limit=limit)["webhooks"]
        out: List[JSONObject] = []
        cursor: Optional[str] = None
        while True:
            a = self._get("webhooks", cursor=cursor)
            out.extend(a["webhooks"])
            cursor = a.get("next_cursor")
            if not cursor:
                return out

    def flush(self) -> int:
        """Flush: waits until no delivery is in flight; returns how many webhooks were captured."""
        return self._post("webhooks/flush")["webhooks_count"]

    def wait_webhook(self, object_id: Optional[str] = None, function: Optional[str] = None,
                     status: Optional[str] = None, timeout: Duration = "5s") -> JSONObject:
        """Wait: the first captured webhook that matches every matcher given,
        waiting up to timeout (a Go duration, at most 30s) for deliveries in
        flight. None comes: ControlError 404 "no_matching_webhook" whose
        message says what was captured and what is pending."""
        body = _fields(object_id=object_id, function=function, status=status, timeout=_duration(timeout))
        # The server waits at most 30 s.
        return self.call("POST", "webhooks/wait", body, timeout=self.timeout + 30)["webhook"]

    def reset_webhooks(self) -> None:
        """Webhooks().Reset: forgets the capture."""
        self.call("DELETE", "webhooks")

    def chaos(self) -> JSONObject:
        """WebhookChaos: the settings in force."""
        return self._get("webhooks/chaos")["chaos"]

    def set_chaos(self, settings: Mapping[str, Any]) -> JSONObject:
        """SetWebhookChaos: {seed, default: {duplicate, reorder, ...}, subscriptions: {...}}."""
        return self.call("PUT", "webhooks/chaos", settings)["chaos"]

    def clear_chaos(self) -> JSONObject:
        """Webhook chaos off."""
        return self.call("DELETE", "webhooks/chaos")["chaos"]

    # --- the journal, state, reset ---

    def requests(self) -> List[JSONObject]:
        """Requests: the API requests received, oldest first, each redacted."""
        return self._get("requests")["requests"]

    def reset_requests(self) -> None:
        """ResetRequests: empties the journal."""
        self.call("DELETE", "requests")

    def state(self) -> JSONObject:
        """Snapshot: the whole state as one document."""
        return self._get("state")

    def restore(self, state: Union[Mapping[str, Any], str, bytes], copy: bool = False) -> None:
        """Restore: replaces the state with a document state() gave (a dict, str or bytes).
        copy=True takes another platform's document (RestoreCopy, ?copy=true): its
        objects, clock and ids become this platform's, which keeps its credentials."""
        self.call("PUT", "state", state, query={"copy": "true"} if copy else None)

    def reset(self) -> None:
        """Reset: empties everything, as if the server had just started (the clock goes on)."""
        self._post("reset")

    # --- platforms (the server's, whichever Control is asked) ---

    def _platforms(self) -> "Control":
        """The Control of the server's /_fake/platforms routes."""
        return self if self.control_root == self.origin + "/_fake" else Control(self.origin, self.token, self.timeout)

    def add_platform(self, name: Optional[str] = None, client_id: Optional[str] = None,
                     client_secret: Optional[str] = None, start: Optional[Start] = "default",
                     clock: Optional[str] = "manual", seed: Optional[int] = None) -> JSONObject:
        """A new platform of the server (POST /_fake/platforms): its client_id,
        client_secret, gateway, name, base_url, control_url and now; every
        field is optional. start is an RFC 3339 instant, an aware datetime
        or "default" (DEFAULT_START_TIME, the default whatever the server's
        clock); clock is "manual" (the default) or "real"."""
        if isinstance(start, datetime.datetime):
            start = start.isoformat()
        return self._platforms()._post("platforms", _fields(
            name=name, client_id=client_id, client_secret=client_secret, start=start, clock=clock,
            seed=seed))["platform"]

    def platforms(self) -> List[JSONObject]:
        """Every platform of the server, the default first, then the others oldest first."""
        return self._platforms()._get("platforms")["platforms"]

    def get_platform(self, client_id: str) -> JSONObject:
        """One platform of the server, as add_platform answers it."""
        return self._platforms()._get(f"platforms/{_seg(client_id)}")["platform"]

    def delete_platform(self, client_id: str) -> None:
        """Deletes a platform and everything in it; its gateway is refused from then on."""
        self._platforms().call("DELETE", f"platforms/{_seg(client_id)}")

    def platform(self, client_id: str) -> "Control":
        """The Control of one platform: every method above on its own data and clock."""
        return Control(f"{self.origin}/_fake/platforms/{_seg(client_id)}", self.token, self.timeout)


def _seg(s: str) -> str:
    """An id as one path segment."""
    return urllib.parse.quote(str(s), safe="")

