"""The app's routes, one `APIRouter` per kind: the HTTP API, the pages, the WebSocket."""
