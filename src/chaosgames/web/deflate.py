"""WebSocket compression for the large messages only: uvicorn's protocol, whose
per-message deflate leaves small messages as they are.

uvicorn (with `websockets`) offers per-message deflate for a whole connection or not at
all, and then compresses every message. A game's connection is sent one whole view
(30-110 KB of JSON, a tenth of that compressed) and then patches of one or two KB, where
compressing costs more CPU than the bytes it saves are worth on a table's network. RFC
7692 lets a sender leave any message uncompressed (its first frame's RSV1 bit unset) and
the receiver's window is only ever fed by the compressed ones, so the two sides stay in
step whatever is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

SMALL = 8_192
"""Messages shorter than this (bytes) are sent uncompressed: patches, answers, the table's news."""


class LargeOnlyDeflate(PerMessageDeflate):
    def encode(self, frame: Frame) -> Frame:
        if frame.fin and frame.opcode in (Opcode.TEXT, Opcode.BINARY) and len(frame.data) < SMALL:
            return frame  # a whole small message, sent as it is
        return super().encode(frame)


class LargeOnlyDeflateFactory(ServerPerMessageDeflateFactory):
    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, extension = super().process_request_params(params, accepted_extensions)
        extension.__class__ = LargeOnlyDeflate  # the same negotiated settings, its own `encode`
        return response, extension


class LargeOnlyDeflateProtocol(WebSocketsSansIOProtocol):
    """uvicorn's protocol (`ws=` of its config) with `LargeOnlyDeflate`, on uvicorn's settings."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [
                LargeOnlyDeflateFactory(
                    server_max_window_bits=12, client_max_window_bits=12, compress_settings={"memLevel": 5}
                )
            ]
