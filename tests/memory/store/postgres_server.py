"""A throwaway PostgreSQL server for the store tests: ``initdb`` and ``pg_ctl`` from Debian's
``postgresql`` package, in a temporary folder, on a free loopback port, trusting local
connections on its socket and asking a password on TCP (so a wrong one can be tested); its
superuser is ``rerank``, password ``PASSWORD``. PostgreSQL refuses to run as root: as root it
runs as the ``postgres`` user (or the one ``RERANK_PLUS_TEST_POSTGRES_USER`` names)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The superuser's password on TCP connections.
PASSWORD = "rerank-test"
#: The user the server runs as when the tests run as root.
USER_VARIABLE = "RERANK_PLUS_TEST_POSTGRES_USER"


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (None: PostgreSQL is not installed)."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """A running server: ``url`` connects as its superuser to the ``postgres`` database."""

    folder: Path
    bin: Path
    port: int
    user: str | None

    @property
    def url(self) -> str:
        return f"postgresql://rerank:{PASSWORD}@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        data = self.folder / "data"
        secret = self.folder / "password"
        secret.write_text(PASSWORD, encoding="utf-8")
        if self.user:
            os.chown(secret, pwd.getpwnam(self.user).pw_uid, -1)
        self._run(
            str(self.bin / "initdb"), "-D", str(data), "-U", "rerank", "--pwfile", str(secret),
            "--auth-local=trust", "--auth-host=scram-sha-256",
        )  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.folder}"
            " -c fsync=off -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(data), "-o", options,
            "-l", str(self.folder / "server.log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        try:
            data = str(self.folder / "data")
            self._run(str(self.bin / "pg_ctl"), "-D", data, "-m", "fast", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_server() -> Server:
    """A new server (see the module docstring); stop it with ``server.stop()``."""
    folder_of_bins = binaries()
    if folder_of_bins is None:
        raise FileNotFoundError("PostgreSQL's initdb is not installed (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="rerank-plus-pg-"))
    user = None
    if os.geteuid() == 0:
        user = os.environ.get(USER_VARIABLE, "postgres")
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        os.chmod(folder, 0o700)
    server = Server(folder, folder_of_bins, _free_port(), user)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return server
