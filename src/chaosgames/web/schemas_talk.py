"""The shapes of the table's requests and answers beside the game (issue 50): presence,
chat, undo and takebacks (they join the OpenAPI schema)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from chaosgames.web.chat import MAX_CHARS


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(
        min_length=1, max_length=MAX_CHARS, description=f"one line of at most {MAX_CHARS} characters"
    )


class ChatMessage(BaseModel):
    id: int
    seat: int
    name: str
    text: str = Field(description="as posted (trimmed to one line): the page shows it as text")
    at: float = Field(description="when it was posted (Unix time)")


class SeatPresence(BaseModel):
    seat: int
    name: str
    human: bool
    connected: bool = Field(description="a page of this seat is connected now (computers always are)")
    last_acted: float | None = Field(description="when the seat last acted (Unix time), None if never")


class Takeback(BaseModel):
    seat: int = Field(description="the seat that asked")
    name: str
    count: int = Field(description="the actions it would take back")
    version: int = Field(description="the game's version it was asked on (it lapses when the game moves on)")
    accepted: list[int]
    waiting: list[int] = Field(description="the people whose answer it waits for")


class TableNews(BaseModel):
    presence: list[SeatPresence]
    spectators: int = Field(description="spectators connected now")
    chat: list[ChatMessage] = Field(description="the latest messages, oldest first")
    takeback: Takeback | None = Field(None, description="a takeback waiting for answers")


class UndoOffer(BaseModel):
    undo: bool = Field(description="the viewer may take back its latest decision alone now")
    takeback: int = Field(description="the actions a takeback the viewer asks for would remove (0: none)")


class VersionAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, description="the game's version the request was decided on")
