"""A request to the model endpoint over real HTTP, as a client sends it."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

PROMPT = "Please list the open tasks of acme-shop."


def post(url: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers.get("Content-Type", ""), error.read()
