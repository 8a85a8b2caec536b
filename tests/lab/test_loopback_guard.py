"""The loopback guard that the ``lab`` fixture puts into JupyterLab and its kernels must
refuse, and record, a connection to another host, and let the loopback through."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GUARD = Path(__file__).resolve().parent / "loopback_guard"

PROBE = """
import socket
for host in ("192.0.2.1", "example.invalid", "127.0.0.1", "localhost"):
    try:
        socket.create_connection((host, 9), timeout=0.5).close()
        print(host, "connected")
    except OSError as e:
        print(host, "refused by guard" if "allows only the loopback" in str(e) else "failed")
"""


def test_guard_refuses_and_records_other_hosts(tmp_path):
    log = tmp_path / "net.log"
    env = dict(os.environ, PYTHONPATH=str(GUARD), TREEBOOK_NET_LOG=str(log))
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, timeout=30, check=True).stdout.split("\n")
    assert out[:2] == ["192.0.2.1 refused by guard", "example.invalid refused by guard"]
    # the loopback is let through (nothing listens on port 9, so the connection fails)
    assert all("refused by guard" not in line for line in out[2:4])
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and "'192.0.2.1'" in lines[0] and "'example.invalid'" in lines[1]
    assert "-c" in (tmp_path / "net.log.guarded").read_text()
