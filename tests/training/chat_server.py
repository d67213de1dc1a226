"""An OpenAI-compatible ``/v1/chat/completions`` server on 127.0.0.1 that writes questions:
for a passage it answers "what about TOPIC" for the topic word the passage mentions, as a
numbered list (what models do though told not to). ``mode`` scripts the other answers."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.training.conftest import TOPICS


class QuestionServer:
    def __init__(self) -> None:
        self.mode = "questions"  # or "nothing": one-word lines only
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                passage = body["messages"][-1]["content"].split("Passage:\n", 1)[-1]
                topic = next((t for t in TOPICS if t in passage.split()), "nothing")
                text = f"1. what about {topic}\n2. {topic} what about this"
                if server.mode == "nothing":
                    text = "Sure!\nOK"
                payload = json.dumps(
                    {
                        "choices": [{"message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 8},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> QuestionServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
