"""The API's browsable documentation, `/api/docs`: Swagger UI served by the app itself.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script; the
app's Content-Security-Policy (scripts from the server only) refuses both, and a server
offline has no CDN anyway. Here the page is plain HTML: Swagger UI's script and style come
from the `fastapi-offline` package's copy, served under `/api/docs/`, and it is started by
`static/apidocs.js`, which reads the schema's address from the page.
"""

from __future__ import annotations

from html import escape
from importlib import resources

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response

from chaosgames.web.errors import NotFound

ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}
"""The files of Swagger UI the page needs, from fastapi-offline's copy."""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} API</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi="{openapi}"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/static/apidocs.js"></script>
</body>
</html>
"""


def install(app: FastAPI, path: str = "/api/docs") -> None:
    """Serve the documentation page at `path` (the app is built with docs_url=None)."""
    page = PAGE.format(title=escape(app.title), openapi=escape(app.openapi_url or "/openapi.json"))
    folder = resources.files("fastapi_offline").joinpath("static")

    @app.get(path, include_in_schema=False)
    async def api_docs() -> Response:
        return HTMLResponse(page)

    @app.get(path + "/{asset}", include_in_schema=False)
    async def api_docs_asset(asset: str) -> Response:
        if asset not in ASSETS:
            raise NotFound(f"There is no file {asset!r} in the API's documentation.")
        with resources.as_file(folder.joinpath(asset)) as file:
            return FileResponse(file, media_type=ASSETS[asset], headers={"Cache-Control": "max-age=86400"})
