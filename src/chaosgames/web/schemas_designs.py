"""The shapes of the designs' requests and answers (issue 54; see `designs`, `design_trials`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

GameName = Field(max_length=64, description="the game: chaos-cruisers or cardboard-machines")
Value = Field(description="the design: a course document (chaos-cruisers) or a list of six boards")


class DesignCheck(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = GameName
    value: Any = Value
    players: int | None = Field(None, ge=2, le=4, description="players, when the check depends on them")


class DesignProblem(BaseModel):
    message: str = Field(description="the game's own sentence")
    places: list[str] = Field(
        description="the places of the picture it points at: 'tile:4,0', 'gate:moon', 'board:2'"
    )


class CheckedDesign(BaseModel):
    ok: bool
    value: Any = Field(description="the design as the game keeps it (null when refused)")
    problems: list[DesignProblem]
    svg: str | None = Field(description="the game's picture of the design (null when refused)")


class NewDesign(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = GameName
    name: str = Field(max_length=200, description="a name, new in its game (1 to 60 characters)")
    value: Any = Value


class SavedDesign(BaseModel):
    id: str
    game: str
    name: str
    value: Any
    link: str = Field(description="the design's page")
    created: float


class DesignList(BaseModel):
    designs: list[SavedDesign]
    presets: dict[str, Any] = Field(default_factory=dict, description="the game's ready-made designs by name")


class NewTrial(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = GameName
    value: Any = Value
    games: int = Field(20, ge=1, le=100, description="games of the design (and as many of the preset)")
    players: int | None = Field(None, ge=2, le=4)
    preset: Any = Field(None, description="what to compare with: a preset (by default the game's first)")


class TrialFigures(BaseModel):
    games: int
    rounds: dict[str, float | None]
    completion: dict[str, float]
    seats: list[dict[str, float]]
    endings: dict[str, int]
    heat: list[dict[str, Any]] = Field(description="per square ('x,y'): crash, ram and wait counts")


class TrialState(BaseModel):
    id: str
    status: str = Field(description="waiting, running or finished")
    note: str | None
    done: int
    total: int
    level: str
    design: TrialFigures
    preset: TrialFigures
