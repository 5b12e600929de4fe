"""The pages' Jinja2 templates, with the filters they use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.templating import Jinja2Templates

HERE = Path(__file__).parent


def json_for_script(value: Any) -> str:
    """JSON safe inside a <script type="application/json"> element."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


templates = Jinja2Templates(directory=HERE / "templates")
templates.env.filters["tojson_script"] = json_for_script
templates.env.filters["json_text"] = json.dumps
