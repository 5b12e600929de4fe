"""The shapes of the table's routes and view (issue 50): endings, resigning, absent seats,
rematches, table rules (they make part of the OpenAPI schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Level = Literal["easy", "medium", "hard"]

PATIENCE_MIN = 120.0
PATIENCE_MAX = 7 * 24 * 3600.0


class TableRulesDoc(BaseModel):
    """Rules a table may choose at creation (docs/web.md, "Table rules")."""

    model_config = ConfigDict(extra="forbid")

    patience: float | None = Field(
        None,
        ge=PATIENCE_MIN,
        le=PATIENCE_MAX,
        description="seconds a person may be awaited on their turn before the others may hand their "
        "seat to a computer (2 minutes to 7 days; none: never)",
    )
    clock: float | None = Field(
        None, ge=10, le=PATIENCE_MAX, description="seconds each person has for the game (none: no clock)"
    )
    increment: float = Field(
        0.0, ge=0, le=3600, description="seconds added after each of a person's decisions"
    )
    out_of_time: Literal["loss", "computer"] = Field(
        "loss", description="a person out of time loses (two players) or a computer level takes the seat"
    )


class EndingDoc(BaseModel):
    how: str = Field(description="rules, cap, resigned, claimed or time")
    seat: int | None = Field(description="the seat it happened to (resigned, claimed against, out of time)")
    sentence: str


class TableSeat(BaseModel):
    seat: int
    person: bool = Field(description="whether a person holds the seat's link")
    played_by: str = Field(description="'human', or the computer level playing it now")
    resigned: bool
    handed: bool = Field(description="a person's seat that a computer plays now")
    why: str | None = Field(description="the last change of who plays it: resigned, handed, taken back, time")
    waiting_since: float | None = Field(
        description="since when (server clock, seconds) its person is awaited"
    )


class RematchState(BaseModel):
    offers: list[int] = Field(description="the seats that offered or accepted")
    game: str | None = Field(description="the rematch's game id, once every person accepted")


class SeatClock(BaseModel):
    seat: int
    remaining: float | None = Field(
        description="seconds left (for the person to act: as of `since`); none for a computer's seat"
    )


class ClockView(BaseModel):
    since: float = Field(description="server time (seconds) from which the person to act's time runs")
    running: int | None = Field(description="the seat whose time runs now")
    seats: list[SeatClock]


class TableView(BaseModel):
    rules: TableRulesDoc
    ending: EndingDoc | None
    seats: list[TableSeat]
    rematch: RematchState
    new_game: str = Field(description="the lobby's form filled in with this game's settings")
    clock: ClockView | None = Field(description="each person's time left, when the table has a clock")


class HandRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Level = Field("medium", description="the computer level that plays the seat")


class RematchAnswer(BaseModel):
    game: str | None = Field(description="the rematch's id, once every person accepted")
    seat: int = Field(description="the seat this person plays in the rematch")
    link: str | None = Field(description="this person's private link to the rematch (theirs only)")
    waiting_for: list[str] = Field(description="the people who have not accepted yet")


class TurningPoint(BaseModel):
    turn: int
    seq: int
    who: str = Field(description="the winner, who took the lead for good then (by the game's heuristic)")


class GameStory(BaseModel):
    turns: int
    decisions: int
    minutes: float
    lead_changes: int = Field(description="changes of the leader by the game's heuristic, sampled each round")
    turning_point: TurningPoint | None
    record: str
    replay: str
