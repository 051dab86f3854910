"""Start a throwaway Synapse homeserver (PyPI ``matrix-synapse``) and talk to its admin API.

Synapse runs on 127.0.0.1 on a free port with SQLite, a client listener only and no federation;
users are registered through the shared-secret admin API.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import socket
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHARED_SECRET = "pelipoyta-test-secret"
PASSWORD = "salasana-123"
RELAXED = {"per_second": 10000, "burst_count": 100000}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _config(workdir: Path, port: int) -> dict[str, Any]:
    return {
        "server_name": "localhost",
        "public_baseurl": f"http://127.0.0.1:{port}/",
        "pid_file": str(workdir / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(workdir / "homeserver.db")}},
        "log_config": str(workdir / "log.yaml"),
        "media_store_path": str(workdir / "media"),
        "signing_key_path": str(workdir / "signing.key"),
        "macaroon_secret_key": "macaroon-test-secret",
        "form_secret": "form-test-secret",
        "registration_shared_secret": SHARED_SECRET,
        "enable_registration": True,
        "enable_registration_without_verification": True,
        "bcrypt_rounds": 4,
        "report_stats": False,
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "federation_domain_whitelist": [],
        "presence": {"enabled": False},
        "url_preview_enabled": False,
        "enable_metrics": False,
        "rc_message": RELAXED,
        "rc_registration": RELAXED,
        "rc_login": {"address": RELAXED, "account": RELAXED, "failed_attempts": RELAXED},
        "rc_joins": {"local": RELAXED, "remote": RELAXED},
        "rc_joins_per_room": RELAXED,
        "rc_invites": {"per_room": RELAXED, "per_user": RELAXED, "per_issuer": RELAXED},
        "rc_room_creation": RELAXED,
        "rc_media_create": RELAXED,
        "rc_key_requests": RELAXED,
        "rc_admin_redaction": RELAXED,
        "rc_3pid_validation": RELAXED,
        "rc_presence": {"per_user": RELAXED},
        "rc_profile": RELAXED,
        "rc_user_directory": RELAXED,
        "rc_delayed_event_mgmt": RELAXED,
    }


LOG_CONFIG = """version: 1
formatters:
  f: {format: '%(asctime)s %(levelname)s %(name)s %(message)s'}
handlers:
  file: {class: logging.FileHandler, filename: LOGFILE, formatter: f}
root: {level: WARNING, handlers: [file]}
disable_existing_loggers: false
"""


@dataclass
class Account:
    user_id: str
    access_token: str
    device_id: str
    localpart: str
    password: str = PASSWORD


class Synapse:
    """A running homeserver: its URL, accounts and a few admin calls."""

    def __init__(self, url: str, workdir: Path, process: subprocess.Popen[bytes], startup: float) -> None:
        self.url = url
        self.workdir = workdir
        self.process = process
        self.startup_seconds = startup
        self._names = itertools.count(1)
        self.admin = self.register("admin", admin=True)

    def _request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read() or b"{}")

    def register(self, name: str, displayname: str | None = None, admin: bool = False) -> Account:
        """A fresh account (``name`` plus a counter, so every test gets its own users)."""
        localpart = f"{name.lower()}{next(self._names)}"
        nonce = self._request("GET", "/_synapse/admin/v1/register")["nonce"]
        mac = hmac.new(SHARED_SECRET.encode(), digestmod=hashlib.sha1)
        mac.update(
            b"\x00".join(
                [nonce.encode(), localpart.encode(), PASSWORD.encode(), b"admin" if admin else b"notadmin"]
            )
        )
        resp = self._request(
            "POST",
            "/_synapse/admin/v1/register",
            {
                "nonce": nonce,
                "username": localpart,
                "password": PASSWORD,
                "admin": admin,
                "displayname": displayname or name,
                "mac": mac.hexdigest(),
            },
        )
        return Account(resp["user_id"], resp["access_token"], resp["device_id"], localpart)

    def override_ratelimit(self, user_id: str, per_second: float, burst: int) -> None:
        """Tight message limits for one user (admin API ``override_ratelimit``)."""
        self._request(
            "POST",
            f"/_synapse/admin/v1/users/{user_id}/override_ratelimit",
            {"messages_per_second": per_second, "burst_count": burst},
            token=self.admin.access_token,
        )


def write_config(workdir: Path) -> tuple[Path, str]:
    """Write ``homeserver.yaml`` (JSON is YAML) and its log config; return the path and the URL."""
    port = _free_port()
    (workdir / "log.yaml").write_text(LOG_CONFIG.replace("LOGFILE", str(workdir / "homeserver.log")))
    path = workdir / "homeserver.yaml"
    path.write_text(json.dumps(_config(workdir, port), indent=1))
    return path, f"http://127.0.0.1:{port}"
