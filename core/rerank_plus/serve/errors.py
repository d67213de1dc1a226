"""The error a request gets: a status and a message that says what to change."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses, with the status and the message the client gets."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
