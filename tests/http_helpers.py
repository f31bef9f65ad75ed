"""One HTTP GET for the tests that read the server's endpoints: the status and body, error statuses included."""

from __future__ import annotations

import urllib.error
import urllib.request


def http_get(url: str, timeout: float = 30.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
