"""The HTTP API fuzzed from its own OpenAPI schema (Schemathesis, bounded): no answer is a
500, every answer matches the schema, and requests outside the schema are refused."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from chaosgames.web import create_app

DATABASE = Path(tempfile.mkdtemp(prefix="chaosgames-fuzz-")) / "games.sqlite"
atexit.register(shutil.rmtree, DATABASE.parent, ignore_errors=True)
# 413 refuses a body too large for the server, which the schema's own limits can exceed
# (64 characters of escaped Unicode take up to 384 bytes of JSON).
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [400, 403, 404, 405, 409, 413, 422]}}}
)
app = create_app(str(DATABASE), computer_pool="thread", workers=1)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", app, config=CONFIG)


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_the_api_answers_every_request_by_its_schema(case: Any) -> None:
    # Valid-looking requests may still be refused for what a schema cannot say (a game name
    # that is not registered, an option value out of range, an illegal move): 4xx, not 2xx.
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
