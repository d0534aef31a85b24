"""A Mosquitto of our own, on loopback: for the tests and the benchmarks, and the install
guide's configuration in code (a password file, one user per table, an ACL that lets each
table write its own topics only and the board read them all).

It runs Debian's ``mosquitto`` (``apt-get install mosquitto``) with a temporary config; it
never touches a system broker.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

from companion.venue.names import ROOT

SEARCH = ("/usr/sbin", "/usr/local/sbin", "/usr/bin")


class MosquittoMissing(RuntimeError):
    """Mosquitto is not installed here."""


def find(program: str) -> str:
    found = shutil.which(program) or next((f"{d}/{program}" for d in SEARCH if os.access(f"{d}/{program}", os.X_OK)),
                                          None)
    if found is None:
        raise MosquittoMissing(f"{program} not found: apt-get install mosquitto (Debian's package)")
    return found


def acl(venue: str, board_user: str = "board") -> str:
    """The broker's ACL for a venue: table users (named as their table ids) write their own
    topics, the board reads every table's."""
    return (f"# the league board reads every table of venue {venue}\n"
            f"user {board_user}\ntopic read {ROOT}/{venue}/#\n\n"
            f"# each table (its user name is its table id) writes its own topics only\n"
            f"pattern readwrite {ROOT}/{venue}/%u/#\n")


def write_password_file(path: Path, users: Mapping[str, str]) -> None:
    """Mosquitto's password file for ``users`` (name -> password), hashed by ``mosquitto_passwd``."""
    tool = find("mosquitto_passwd")
    path.unlink(missing_ok=True)
    for i, (user, password) in enumerate(users.items()):
        flags = ["-b", "-c"] if i == 0 else ["-b"]
        subprocess.run([tool, *flags, str(path), user, password], check=True, capture_output=True, timeout=30)


def make_certificates(folder: Path, host: str) -> Path:
    """A certificate authority of our own and a broker certificate it signed for ``host`` (an
    IP address), made with ``openssl``; returns the CA's certificate."""
    tool = shutil.which("openssl")
    if tool is None:
        raise MosquittoMissing("openssl not found: apt-get install openssl")
    (folder / "san.cnf").write_text(f"subjectAltName=IP:{host}\n")

    def run(*args: str) -> None:
        subprocess.run([tool, *args], check=True, capture_output=True, timeout=60, cwd=folder)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
        "-subj", "/CN=Table Companion test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", f"/CN={host}")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.crt", "-days", "2", "-extfile", "san.cnf")
    return folder / "ca.crt"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalMosquitto:
    """``mosquitto`` on 127.0.0.1 at a free port, with its files in ``folder``; persistence on
    (as Debian's package has it), so a stop and a start keep sessions and retained messages."""

    def __init__(self, folder: Path, venue: str, users: Mapping[str, str], *, board_user: str = "board",
                 persistence: bool = True, tls: bool = False) -> None:
        self.folder, self.venue = Path(folder), venue
        self.binary = find("mosquitto")
        self.host, self.port = "127.0.0.1", free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        write_password_file(self.folder / "passwd", users)
        (self.folder / "acl").write_text(acl(venue, board_user))
        lines = [f"listener {self.port} {self.host}"]
        self.ca_file = ""
        if tls:
            self.ca_file = str(make_certificates(self.folder, self.host))
            lines += [f"cafile {self.ca_file}", f"certfile {self.folder / 'server.crt'}",
                      f"keyfile {self.folder / 'server.key'}"]
        lines += ["allow_anonymous false",
                 f"password_file {self.folder / 'passwd'}", f"acl_file {self.folder / 'acl'}",
                 f"persistence {'true' if persistence else 'false'}", f"persistence_location {self.folder}/",
                 "max_queued_messages 100000", "log_type error", "log_type warning", "log_type notice",
                 f"log_dest file {self.folder / 'mosquitto.log'}"]
        if os.geteuid() == 0:  # as root it would switch to the user 'mosquitto', who may not read our files
            lines.append("user root")
        (self.folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> LocalMosquitto:
        self.process = subprocess.Popen([self.binary, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited ({self.process.returncode}): {self.log()[-2000:]}"
                                   f"{(self.process.stderr.read() if self.process.stderr else b'').decode()}")
            try:
                socket.create_connection((self.host, self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on {self.host}:{self.port} in {timeout:g} s: {self.log()}")

    def stop(self) -> None:
        """Stop it as systemd would (SIGTERM: it saves its sessions and retained messages)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def __enter__(self) -> LocalMosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
