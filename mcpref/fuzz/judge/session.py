"""The state of one judgement, shared by the judge modules: ``Session``.

In: the stream a client sent (read once, ``lines``) and the ``Observation`` of the server. Out,
as the judge modules fill it: the findings, in the order made, and what the session has shown so
far, kept in one place so that each rule family reads the same facts: the answers by id not yet
claimed, the id-null answers and the lines that may draw one (``NullSlot``), what the server
chose (``Target``), and the requests whose answer is settled only once id-null answers are matched.
"""

from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import TypeAlias

from mcpref.fuzz.drive.observation import Observation
from mcpref.fuzz.judge.findings import Finding
from mcpref.fuzz.judge.lines import read_input
from mcpref.fuzz.judge.modern import (
    LEGACY_NAMES,
    MODERN_NAMES,
    Find,
    ModernJudge,
    ModernServer,
    error_code,
    show,
)
from mcpref.fuzz.judge.reading import Invalid, Notification, Request, initialize_params_problem, is_valid_id
from mcpref.reference.eras import META_LOG_LEVEL
from mcpref.reference.messages import JsonObject, JsonValue, RequestId
from mcpref.reference.rules import BY_ID

# Ids 1 and "1" differ (RPC-ID-ECHO), and so must their keys.
IdKey: TypeAlias = tuple[bool, RequestId]


def id_key(request_id: RequestId) -> IdKey:
    return (isinstance(request_id, str), request_id)


@dataclass
class Target:
    """What the server under test has shown of its state so far."""

    accepted_init: bool = False
    ready: bool = False
    version: str | None = None
    capabilities: JsonObject | None = field(default_factory=dict)  # None: never shown (no DiscoverResult seen)
    tools: dict[str, JsonObject] | None = None
    # Whether the last tools/list result was a last page (no nextCursor): only a whole listing shows
    # that a tool is not the server's (TOOLS-UNKNOWN).
    all_tools: bool = False
    # The version a second initialize the server accepted replaced (LIFE-SECOND-INIT): which of the
    # two then governs is open, since no version of the specification says.
    replaced_version: str | None = None


@dataclass(frozen=True)
class NullSlot:
    """A line that may draw an answer with id null."""

    line: int
    required: bool
    codes: frozenset[int]
    rule: str  # broken when a required answer is missing or has another code
    mandatory: bool
    answered_rule: str | None = None  # the reference stays silent here: answering is a divergence
    raw_id: JsonValue = None  # an id member that is no valid id (true, 1.5): an answer may come under a reading of it


@dataclass
class Answer:
    value: JsonObject
    in_array: bool


# A request settled once the id-null answers are matched: its line, its id, the rule its silence breaks.
Pending: TypeAlias = tuple[int, RequestId, str]


def _weakly(find: Find) -> Find:
    """``find``, without the reference to its session that would make a cycle of the session and its
    ``modern``: a session judged is then freed at once, with the findings and the output it holds (up to
    16 MiB a case), not at a full collection, which a campaign's many live objects make rare."""
    method = weakref.WeakMethod(find)

    def found(rule: str, line: int | None, message: str, expected: str, actual: str, mandatory: bool | None) -> None:
        bound = method()
        assert bound is not None  # a judge is only called while its session judges
        bound(rule, line, message, expected, actual, mandatory)

    return found


class Session:
    def __init__(self, stream: bytes, observation: Observation) -> None:
        self.input = read_input(stream)
        self.unterminated = not stream.endswith(b"\n")
        self.stream_size = len(stream)
        self.observation = observation
        self.findings: list[Finding] = []
        self.witnessed: set[str] = set()  # rules judged only in a situation the server created, that met it
        self.target = Target()
        self.by_id: dict[IdKey, list[Answer]] = {}
        self.nulls: list[JsonObject] = []
        self.slots: list[NullSlot] = []
        self.cancelled: set[IdKey] = set()
        self.id_uses: Counter[IdKey] = Counter()
        self.response_ids: set[IdKey] = set()
        self.saw_notification = False
        self.probe_answers: list[JsonObject] = []
        self.unread_ids: list[Pending] = []  # invalid requests whose id got no answer
        self.unanswered: list[Pending] = []  # requests without an answer, while id-null errors came
        self.split: list[Pending] = []  # the same, with a false line end in their line
        # Lines a peer may refuse (``refusable.refused``) that drew an id-null error, matched as their
        # refusal: the line, its finding and the error, for a split of the line to take back.
        self.refusals: list[tuple[int, Finding, JsonObject]] = []
        self.initialized_early = False  # notifications/initialized before any initialize was accepted
        self.refused_early = False  # a request refused before initialize, and before such a notification
        self.answered_at: dict[IdKey, int] = {}  # where the first answer to each id was written
        self.spared: set[IdKey] = set()  # ids whose answers left are others' (``take``)
        # The server's own requests and notifications, by output line.
        self.server_messages: list[tuple[int, JsonObject]] = []
        # The elicitationIds of url-mode elicitations the server started in a -32042 error (survey).
        self.required_elicitations: set[str] = set()
        self.log_askers: list[RequestId] = []  # the requests whose _meta asked for a log level (survey)
        # The output line of the first answer accepting a legacy initialize (survey): from there
        # on the connection holds a legacy session, with the capabilities that initialize declared.
        self.legacy_from: int | None = None
        self.client_capabilities: JsonValue = None
        # Each progress token the requests carried, with the ids of the requests carrying it (survey).
        self.progress_tokens: dict[IdKey, list[RequestId]] = {}
        self.discovered = False  # a server/discover was answered with a result
        self.off_script_from: int | None = None  # the line of an initialize sent after that
        self.modern = ModernJudge(ModernServer(), _weakly(self.find), witnessed=self.witnessed)
        # Modern requests are judged against what the server showed of the modern era.
        self.modern_target = Target(accepted_init=True, ready=True, version=min(MODERN_NAMES), capabilities=None)

    def find(
        self,
        rule: str,
        line: int | None,
        message: str,
        expected: str,
        actual: str,
        mandatory: bool | None = None,
        decision: bool = False,
    ) -> None:
        """``decision``: what the text permits and only the reference refuses, a note under spec."""
        if decision:
            mandatory = False
        elif mandatory is None:
            mandatory = BY_ID[rule].level.mandatory
        if mandatory and line is not None and self.off_script_from is not None and line >= self.off_script_from:
            # MOD-DUAL-ERA: what follows initialize after a discover that succeeded is a session no
            # compliant client opens, so no MUST of either era was written for it.
            mandatory, message = False, f"{message} (after initialize that followed a successful server/discover)"
        self.findings.append(Finding(rule, mandatory, line, message, expected, actual, decision))

    def survey(self) -> None:
        """Cancellations, ids used by more than one request (RPC-DUPLICATE-ID), the server's eras, and
        the url-mode elicitations its -32042 errors started (CAP-ELICIT-COMPLETE)."""
        server = self.modern.server
        refused_initialize = False
        for answers in self.by_id.values():
            for answer in answers:
                server.learn(answer.value)
                self.required_elicitations |= _required_elicitations(answer.value)
        for probe_answer in self.probe_answers:
            server.learn(probe_answer)
        for line in self.input:
            for message in line.messages:
                if isinstance(message, Request | Invalid) and message.id is not None:
                    self.id_uses[id_key(message.id)] += 1
                if isinstance(message, Request) and isinstance(envelope := (message.params or {}).get("_meta"), dict):
                    if META_LOG_LEVEL in envelope:
                        self.log_askers.append(message.id)
                    if is_valid_id(token := envelope.get("progressToken")):
                        self.progress_tokens.setdefault(id_key(token), []).append(message.id)
                if (
                    isinstance(message, Request)
                    and message.method == "initialize"
                    and initialize_params_problem(message.params or {}) is None
                    and (message.params or {}).get("protocolVersion") in LEGACY_NAMES
                ):
                    answers = self.by_id.get(id_key(message.id), [])
                    refused_initialize |= any("error" in answer.value for answer in answers)
                    if any("result" in answer.value for answer in answers):
                        at = self.answered_at[id_key(message.id)]
                        if self.legacy_from is None or at < self.legacy_from:
                            self.legacy_from = at
                            self.client_capabilities = (message.params or {}).get("capabilities")
                if isinstance(message, Notification) and message.method == "notifications/cancelled" and message.params:
                    request_id = message.params.get("requestId")
                    if is_valid_id(request_id):
                        self.cancelled.add(id_key(request_id))
        # Modern only: it refused to open a legacy session for a legacy version, and never opened one,
        # nor did its discovery name a legacy version (then a refusal is the session's, "duplicate").
        server.only = server.speaks and refused_initialize and self.legacy_from is None and not server.lists_legacy
        if server.capabilities is not None:
            self.modern_target.capabilities = server.capabilities

    @property
    def server_requests(self) -> list[tuple[int, str]]:
        """The server's requests: output line and method."""
        return [(position, show(value.get("method"))) for position, value in self.server_messages if "id" in value]

    @property
    def logs(self) -> list[int]:
        """The output lines of the server's notifications/message."""
        return [
            position
            for position, value in self.server_messages
            if "id" not in value and value.get("method") == "notifications/message"
        ]

    def take(self, request_id: RequestId) -> list[Answer]:
        """The answers under ``request_id``, but for those owed to other requests whose ids may be
        answered under it: a double does not tell them apart (RFC 8259 section 6: 2**53 + 1 and
        2**53 + 2 may both be read as 2**53 + 2), or their type changed ("1" answered as 1). Those
        are left for them to find (``retyped``): one cause, RPC-ID-ECHO, not a second answer too."""
        key = id_key(request_id)
        answers = self.by_id.pop(key, [])
        owed = max(self.id_uses[key], 1)
        if len(answers) > owed and self._answerable_as(key):
            self.by_id[key], answers = answers[owed:], answers[:owed]
            self.spared.add(key)
        return answers

    def _answerable_as(self, key: IdKey) -> bool:
        """Whether another request's id may come back as ``key``'s (``same_id_changed``)."""
        return any(other != key and same_id_changed(key[1], other[1]) for other, uses in self.id_uses.items() if uses)

    def take_first(self, key: IdKey) -> JsonObject:
        """The first answer under ``key``, which has one, taken from the answers still unclaimed."""
        answers = self.by_id[key]
        answer = answers.pop(0).value
        if not answers:
            del self.by_id[key]
        return answer

    def retyped(self, request_id: RequestId) -> JsonObject | None:
        """The answer to ``request_id`` under another id (``retyped_key``), taken."""
        key = self.retyped_key(request_id)
        if key is None:
            return None
        if self.unsent(key) and not self._answerable_as(id_key(request_id)):
            return self.by_id.pop(key)[0].value
        return self.take_first(key)

    def retyped_key(self, request_id: RequestId) -> IdKey | None:
        """The id of an answer to ``request_id`` under another id: its type changed, or its value
        through a float. Under another request's id, only an answer beyond what it is owed."""
        for key, answers in self.by_id.items():
            if same_id_changed(key[1], request_id) and (
                self.unsent(key) or key in self.spared or len(answers) > self.id_uses[key]
            ):
                return key
        return None

    def unsent(self, key: IdKey) -> bool:
        """Whether no request of the session has this id: an answer by it is no other request's own."""
        return self.id_uses[key] == 0


def result_of(answer: JsonObject) -> JsonObject | None:
    result = answer.get("result")
    return result if isinstance(result, dict) else None


def same_id_changed(answered: RequestId, sent: RequestId) -> bool:
    """Whether an answer's id is the id sent with its type changed ("7" for 7), or an integer id
    rounded to a double (2**53 + 1 answered as 2**53): the answer of a peer that read it so. Never the
    id itself: an answer by it was taken as the request's own."""
    if str(answered) == str(sent):
        return True
    if type(sent) is not int or type(answered) is not int:
        return False
    # Or saturated at a 64-bit integer's bounds (10**30 answered as -2**63: a reader's overflow).
    return float(sent) == float(answered) or (abs(sent) >= 2**63 and answered in _INT64_BOUNDS)


_EXACT_IN_A_DOUBLE = 2**53
_INT64_BOUNDS = (-(2**63), 2**63 - 1)


def beyond_doubles(request_id: RequestId) -> bool:
    """Whether an id is an integer that a double does not hold exactly (RPC-JSON-LIMITS)."""
    return type(request_id) is int and abs(request_id) > _EXACT_IN_A_DOUBLE


# The codes JSON-RPC reserves for its pre-defined errors, -32768 to -32000; the rest are applications'.
_JSON_RPC_CODES = range(-32768, -31999)


def answered(answer: JsonObject) -> str:
    """How a request was answered, in words: served, or refused with which code."""
    code = error_code(answer)
    if code is None:
        return "served"
    if code in _JSON_RPC_CODES:
        return f"refused with {code}"
    return f"refused with code {code}, outside JSON-RPC's reserved range"


URL_ELICITATION_REQUIRED = -32042  # 2025-11-25: the error that starts url-mode elicitations


def _required_elicitations(answer: JsonObject) -> set[str]:
    """The elicitationIds of a -32042 (URL elicitation required) error's elicitations (CAP-ELICIT-COMPLETE)."""
    error = answer.get("error")
    data = error.get("data") if isinstance(error, dict) and error.get("code") == URL_ELICITATION_REQUIRED else None
    elicitations = data.get("elicitations") if isinstance(data, dict) else None
    return {
        found
        for elicitation in (elicitations if isinstance(elicitations, list) else [])
        if isinstance(elicitation, dict) and isinstance(found := elicitation.get("elicitationId"), str)
    }
