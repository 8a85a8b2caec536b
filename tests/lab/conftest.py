"""JupyterLab, started and stopped by the test itself, for ``make test-lab``.

``make test`` does not collect this folder (``--ignore=tests/lab``): it needs Chromium
and a JupyterLab server. The ``lab`` fixture starts ``jupyter lab`` from this venv:

* on 127.0.0.1 only, on a free port, with a token chosen here, ``--allow-root``,
  no browser;
* with every Jupyter and IPython directory (config, data, runtime, Lab settings and
  workspaces, and the checkpoints) in a fresh temporary folder, so nothing of the
  user's set-up is read and nothing is written next to the chapters;
* with the news feed, the update check and the PyPI extension manager off, and in its
  settings ``.md`` chapters open as notebooks through jupytext (as ``make lab`` sets)
  and autosave off (the chapter on disk is never rewritten);
* with ``loopback_guard/sitecustomize.py`` on ``PYTHONPATH``, so the server and its
  kernels refuse and record any connection to another host.

Every wait is bounded; at the end the server is shut down through its API (which stops
its kernels); the server, then any kernel still running, is killed if it does not exit
in time.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from headless_chromium import browser  # noqa: E402,F401 - the shared Chromium fixture

START_TIMEOUT_S = 90
STOP_TIMEOUT_S = 20


@dataclass
class LabServer:
    url: str          # http://127.0.0.1:<port>/ (the server's base URL)
    token: str
    root: Path        # the server's root folder (the repository)
    net_log: Path     # refused connections of the server and its kernels
    log: Path         # the server's own stdout and stderr

    def api(self, method: str, path: str, timeout: float = 10) -> dict | None:
        req = urllib.request.Request(self.url + path.lstrip("/"), method=method,
                                     headers={"Authorization": f"token {self.token}"},
                                     data=b"" if method == "POST" else None)
        with urllib.request.urlopen(req, timeout=timeout) as r:
            body = r.read()
        return json.loads(body) if body else None

    def log_tail(self, n: int = 40) -> str:
        lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(lines[-n:])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _lab_config(checkpoints: Path) -> dict:
    return {
        # an absolute checkpoint folder: opening the chapter writes nothing under book/
        "FileCheckpoints": {"checkpoint_dir": str(checkpoints)},
        "ServerApp": {"ip": "127.0.0.1", "open_browser": False, "port_retries": 0,
                      "allow_remote_access": False, "terminals_enabled": False},
        "LabApp": {"news_url": None,
                   "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
                   "extension_manager": "readonly",
                   # window.jupyterapp: the test opens the chapter and runs its cells
                   # through JupyterLab's own commands
                   "expose_app_in_browser": True},
        "LanguageServerManager": {"autodetect": False},
    }


_USER_SETTINGS = {
    # the same default viewers as `make lab` (Makefile, LAB_OVERRIDES); no autosave, so
    # running the cells never writes the chapter back
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {
        "defaultViewers": {"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"},
        "autosave": False},
    # every cell stays in the page, so the test finds the slider wherever it is
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # neither ask for nor fetch news, never check for updates
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "checkForUpdates": False, "fetchNews": "false"},
}


@pytest.fixture(scope="session")
def lab(tmp_path_factory) -> LabServer:
    home = tmp_path_factory.mktemp("lab")
    dirs = {name: home / name for name in
            ("config", "data", "runtime", "ipython", "settings", "workspaces",
             "checkpoints")}
    for d in dirs.values():
        d.mkdir()
    (dirs["config"] / "jupyter_lab_config.json").write_text(json.dumps(_lab_config(dirs["checkpoints"])))
    for name, value in _USER_SETTINGS.items():
        path = dirs["settings"] / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    net_log = home / "refused-connections.log"
    net_log.touch()
    env = dict(os.environ,
               JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
               JUPYTER_RUNTIME_DIR=str(dirs["runtime"]), IPYTHONDIR=str(dirs["ipython"]),
               JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
               JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
               JUPYTER_PLATFORM_DIRS="1", TREEBOOK_NET_LOG=str(net_log),
               PYTHONPATH=os.pathsep.join(
                   p for p in (str(HERE / "loopback_guard"), os.environ.get("PYTHONPATH"))
                   if p))
    port, token = _free_port(), secrets.token_hex(24)
    cmd = [sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser",
           "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={ROOT}",
           f"--LabApp.user_settings_dir={dirs['settings']}",
           f"--LabApp.workspaces_dir={dirs['workspaces']}"]
    log = home / "server.log"
    server = LabServer(url=f"http://127.0.0.1:{port}/", token=token, root=ROOT,
                       net_log=net_log, log=log)
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}:\n{server.log_tail()}",
                            pytrace=False)
            try:
                server.api("GET", "api/status", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not answer within {START_TIMEOUT_S} s:\n"
                                f"{server.log_tail()}", pytrace=False)
                time.sleep(0.5)
        yield server
    finally:
        _stop(server, proc)


def _stop(server: LabServer, proc: subprocess.Popen) -> None:
    # the kernels run in sessions of their own: note them now, to kill any that is left
    try:
        children = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        children = []
    if proc.poll() is None:
        try:
            server.api("POST", "api/shutdown", timeout=5)  # also shuts its kernels down
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            proc.terminate()
        try:
            proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    for child in children:
        try:
            child.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(children, timeout=5)
