"""The web app: play every game in the browser, with friends and computer opponents.

`create_app(database_url=...)` builds the ASGI app; `chaosgames serve` runs it. See
docs/web.md for running it, seats and links, and the HTTP/WebSocket API.
"""

from chaosgames.web.app import create_app

__all__ = ["create_app"]
