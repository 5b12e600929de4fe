"""The shapes of the HTTP API's requests and answers (they make its OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from chaosgames.web.schemas_table import TableRulesDoc, TableView
from chaosgames.web.schemas_talk import UndoOffer

Spec = Annotated[str, Field(min_length=1, max_length=200)]
Notation = Annotated[str, Field(max_length=64)]


class Problem(BaseModel):
    """Every refusal: a sentence saying what was wrong and what would be accepted."""

    detail: str
    legal: list[str] | None = Field(None, description="the legal actions' notation (illegal actions)")
    version: int | None = Field(None, description="the game's version now (stale or illegal actions)")


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64, description="the game, e.g. chaos-checkers")
    seats: list[Spec] = Field(
        min_length=1,
        max_length=8,
        description="who plays each seat: 'human' or an agent spec ('mcts:time=1.0')",
    )
    options: dict[str, Any] = Field(default_factory=dict, description="game options; defaults fill the rest")
    seed: int | None = Field(None, ge=0, lt=2**63, description="seed of the dice and the computer seats")
    actions: list[Notation] | None = Field(
        None, max_length=20_000, description="continue from these actions (a record's), each one checked"
    )
    takebacks: Literal["accept", "never"] = Field(
        "accept", description="how the computer seats answer a person's takeback request"
    )
    table: TableRulesDoc | None = Field(None, description="the table's rules: patience, clock (docs/web.md)")


class SeatLink(BaseModel):
    seat: int
    name: str
    who: str
    link: str | None = Field(None, description="the seat's private link (people only)")
    token: str | None = Field(None, description="the seat's secret token (people only)")


class CreatedGame(BaseModel):
    id: str
    game: str
    title: str
    spectator: str
    seats: list[SeatLink]


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Notation = Field(description="the action in the game's notation, e.g. 11-15")
    version: int = Field(ge=0, description="the game's version the action was decided on")


class Player(BaseModel):
    seat: int
    name: str | None
    who: str
    human: bool


class LegalAction(BaseModel):
    notation: str
    description: str
    places: list[str] = Field(description="the places on the picture that select it, in click order")
    group: str = Field(description="the heading of its group in the list of choices ('' for none)")
    order: int = Field(description="where its group goes in the list (smaller first)")
    rules: str | None = Field(description="the anchor of the rules page's section it follows")


class LogEntry(BaseModel):
    seq: int
    actor: int = Field(description="the seat that acted, or -1 for chance")
    who: str
    notation: str
    description: str = Field(description="one plain sentence, as the viewer may keep it")
    turn: int = Field(description="the turn: the decisions up to it (0: the setup's chance outcomes)")


class LogPage(BaseModel):
    start: int = Field(description="entries from this one on (0: the first)")
    log: list[LogEntry]


class TurnEvent(BaseModel):
    seq: int
    actor: int
    who: str
    notation: str
    text: str = Field(description="one plain sentence, told in full while the turn is the latest")


class LatestTurn(BaseModel):
    """The last decision and the chance outcomes after it (or the setup, before any)."""

    number: int
    start: int = Field(description="the index of its first action")
    events: list[TurnEvent]
    places: list[str] = Field(description="the places of the picture it changed (marked last-action)")
    moves: list[list[str]] = Field(description="[from, to] places of things it moved that have no id")


class LegendEntry(BaseModel):
    text: str
    colour: str | None
    symbol: str | None


class LegendSection(BaseModel):
    title: str
    entries: list[LegendEntry]


class Result(BaseModel):
    returns: list[float]
    winners: list[str]
    summary: str


class ThinkingSeat(BaseModel):
    seat: int
    who: str
    budget: float | None
    elapsed: float


class GameView(BaseModel):
    id: str
    game: str
    title: str
    version: int
    status: str
    viewer: int | None
    viewer_name: str | None
    players: list[Player]
    to_act: int | None
    to_act_name: str | None
    thinking: ThinkingSeat | None
    trouble: str | None
    svg: str = Field(description="the board as the viewer sees it (its legend apart)")
    legend: list[LegendSection]
    turn: LatestTurn
    text: str
    observation: dict[str, Any]
    legal: list[LegalAction]
    log_from: int
    log: list[LogEntry]
    result: Result | None
    continued_from: int | None
    since: int | None = Field(
        None, description="the first move-log entry after the viewer's last decision (None: not played yet)"
    )
    undo: UndoOffer | None = Field(None, description="what the viewer may take back (see docs/web.md, Undo)")
    table: TableView = Field(description="the table's rules, ending, seats and rematch (issue 50)")


class GameSummary(BaseModel):
    id: str
    game: str
    title: str
    status: str
    version: int
    players: list[Player]
    to_act_name: str | None
    result: str | None
    updated: float


class GameList(BaseModel):
    running: list[GameSummary]
    finished: list[GameSummary]


class OptionDoc(BaseModel):
    name: str
    kind: str
    default: Any
    doc: str
    choices: list[Any] | None
    minimum: float | None
    maximum: float | None


class GameDoc(BaseModel):
    name: str
    title: str
    pitch: str
    min_players: int
    max_players: int
    default_players: int
    options: list[OptionDoc]
    hides_information: bool


class AgentDoc(BaseModel):
    name: str
    summary: str
    parameters: list[OptionDoc]


class Catalogue(BaseModel):
    games: list[GameDoc]
    agents: list[AgentDoc]
    levels: list[str] = Field(description="the computer levels every game offers, easiest first")
    seat_examples: list[str]


class ReplayPlayer(BaseModel):
    seat: int
    name: str
    who: str


class ReplayInfo(BaseModel):
    game: str
    title: str
    players: list[ReplayPlayer]
    count: int
    log: list[LogEntry]
    result: list[float] | None
    ending: str | None = Field(
        None, description="how the table ended the game (a resignation, a claim, time)"
    )


class ReplayFrame(BaseModel):
    at: int
    count: int
    svg: str
    text: str
    legend: list[LegendSection]
    turn: LatestTurn = Field(description="the turn that ends at this position")


class RecordDocument(BaseModel):
    """A game record (`chaosgames.GameRecord.to_json()`), as `chaosgames play` and this site
    save them."""

    model_config = ConfigDict(extra="allow")

    format: Literal["chaosgames-record"]
    version: int = Field(1, ge=1, le=1)
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=8)
    actions: list[Notation] = Field(max_length=20_000)
    result: list[float] | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class Health(BaseModel):
    ok: bool
    running_games: int
    """Games in progress this server process has in memory."""
    connections: int
    """WebSocket connections to this server process."""
    servers: int
    """Server processes working on the same database (as of this one's last heartbeat)."""


class ActionAccepted(BaseModel):
    """The short answer to an action (asked for with `Prefer: return=minimal`): the page
    sees the new position on its WebSocket, as every other viewer does."""

    id: str
    version: int
    status: str
    to_act: int | None
