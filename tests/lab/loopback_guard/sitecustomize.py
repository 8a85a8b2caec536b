"""Keep a Python process (JupyterLab's server, and its kernels) on the loopback.

``tests/lab`` puts this folder on ``PYTHONPATH`` of the server it starts, so Python
imports this module at start-up in the server and in every kernel it launches (they
inherit the environment). An audit hook refuses every name lookup, connection or
datagram to a host that is not the loopback, and appends one line per refusal to the
file named by ``$TREEBOOK_NET_LOG``; the test fails when that file is not empty. Each
guarded process also appends its command line to ``$TREEBOOK_NET_LOG.guarded``.
(libzmq's sockets are not Python sockets: the kernel's channels, on 127.0.0.1, are not
seen, and need not be.)
"""

from __future__ import annotations

import ipaddress
import os
import socket
import sys

_LOG = os.environ.get("TREEBOOK_NET_LOG")
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def _is_local(host) -> bool:
    if host is None:  # getaddrinfo(None, port): a local address to bind to
        return True
    if isinstance(host, (bytes, bytearray)):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]").lower()
    if host in _LOCAL_NAMES or host.endswith(".localhost") or host == "":
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _refuse(event: str, host, port) -> None:
    line = f"{os.getpid()} {sys.argv[0] if sys.argv else '?'}: {event} {host!r} {port!r}\n"
    if _LOG:
        with open(_LOG, "a", encoding="utf-8") as f:
            f.write(line)
    raise OSError(f"treebook's lab test allows only the loopback: {event} {host!r} refused")


def _hook(event: str, args) -> None:
    if event == "socket.getaddrinfo":
        host, port = args[0], args[1]
    elif event in ("socket.connect", "socket.sendto", "socket.sendmsg"):
        sock, address = args[0], args[-1]
        if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6):
            return  # Unix sockets and the like never leave the machine
        if not isinstance(address, tuple) or not address:
            return
        host, port = address[0], address[1] if len(address) > 1 else None
    else:
        return
    if not _is_local(host):
        _refuse(event, host, port)


if _LOG:
    sys.addaudithook(_hook)
    # say so, so the test can tell that the server and its kernel are guarded
    with open(_LOG + ".guarded", "a", encoding="utf-8") as _f:
        _f.write(f"{os.getpid()} {' '.join(sys.orig_argv)}\n")
