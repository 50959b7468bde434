"""Several replicas of the app behind nginx, each visitor's session kept on one replica (sticky sessions).

    python3 -m deploy.replicas --replicas 2                 # http://127.0.0.1:8080/, replicas on 7861 and 7862
    python3 -m deploy.replicas --replicas 4 --port 80 --host 0.0.0.0
    python3 -m deploy.replicas --replicas 4 --print-config   # the http-level config for a server's own nginx

Gradio's queue lives in one process: a page (or a gradio_client session) joins an event on one replica with a POST
and reads its result from the same replica's event stream, so every request of a session must reach the replica
that holds it. Hashing on the client's address (nginx's ip_hash) would keep that, but sends a class behind one
school NAT to a single replica. So the key is a cookie: a request without one is routed by its address, and the page
(GET /) or /config without one is answered with `Set-Cookie: ae_replica=<random>`; every later request of that page
carries it and is routed by it (nginx's consistent hash), which spreads the sessions of one address over the
replicas. Browsers send the cookie on every
fetch; gradio_client keeps the cookies of its first response (/config) for the rest of the session. A plain HTTP
caller that keeps no cookies (curl without -c/-b) is routed by its address, so its POST and its GET of the event
stream meet on one replica.

The replicas run `python app.py` with ATTN_EXPLORER_BEHIND_PROXY=1: the request limits (ui/limits.py) then read
each visitor's address from the X-Forwarded-For entry nginx appends, not the proxy's. Needs nginx (Debian's
package: `apt-get install nginx`; the Makefile's test target installs it); nginx runs as a child with its files
(config, pid, logs, temporary bodies) in one folder, so no system configuration is touched. Measured capacity per
replica and per core, and the numbers for a course: docs/deploy.md.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deploy.processes import free_port, stop, wait_until_up

ROOT = Path(__file__).resolve().parent.parent
COOKIE = "ae_replica"
BEHIND_PROXY_ENV = "ATTN_EXPLORER_BEHIND_PROXY"
ACCESS_LOG = "access.log"  # one line per request: time, the session's cookie, the replica that answered, status, request


def nginx_binary() -> str | None:
    """The nginx executable, or None (Debian installs it in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                          if os.access(p, os.X_OK)), None)


def http_config(ports: list[int], listen: str, access_log: str | None = None) -> str:
    """The http-level nginx config (maps, upstream, server) for replicas on 127.0.0.1:`ports`, served on `listen`
    ("8080", "0.0.0.0:80"): what a server's own nginx includes (/etc/nginx/conf.d/)."""
    servers = "\n".join(f"    server 127.0.0.1:{p};" for p in ports)
    log = f"    access_log {access_log} ae_route;\n" if access_log else ""
    return f"""\
# Attention Explorer: {len(ports)} replicas behind one address, sticky by the {COOKIE} cookie (deploy/replicas.py).
map $cookie_{COOKIE} $ae_route {{
    ""      $remote_addr;          # no cookie yet (a first request, or curl): by address
    default $cookie_{COOKIE};
}}
map "$cookie_{COOKIE}|$uri" $ae_set_cookie {{
    # given with the page and with /config (a page load, gradio_client's first call), before any session request;
    # never on a stream or a call, whose session may already have a cookie on its way
    "~^\\|/(config)?$" "{COOKIE}=$request_id; Path=/; HttpOnly; SameSite=Lax";
    default "";                    # an empty value: nginx adds no header
}}
map $http_upgrade $ae_connection {{
    default upgrade;
    ""      "";                    # keep-alive to the replicas
}}
log_format ae_route '$msec $cookie_{COOKIE} $upstream_addr $status "$request"';
upstream attention_explorer {{
    hash $ae_route consistent;     # a replica that stops answering: only its sessions move
{servers}
    keepalive 32;
}}
server {{
    listen {listen};
{log}    client_max_body_size 1m;       # the app refuses bodies over 64 KB itself, with its own message
    location / {{
        proxy_pass http://attention_explorer;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $ae_connection;
        proxy_buffering off;       # Gradio's event streams reach the page as they are written
        proxy_read_timeout 1h;     # a stream stays open while its events wait in the queue
        add_header Set-Cookie $ae_set_cookie always;
    }}
}}
"""


def standalone_config(folder: Path, ports: list[int], listen: str) -> str:
    """A whole nginx.conf whose files all live in `folder` (pid, logs, temporary bodies): for `serve`."""
    tmp = folder / "tmp"
    user = "user root;\n" if os.geteuid() == 0 else ""  # as root, the workers would otherwise be nobody
    temps = "".join(f"    {kind}_temp_path {tmp / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                        "scgi"))
    body = "".join(f"    {line}\n" if line else "\n"
                   for line in http_config(ports, listen, str(folder / ACCESS_LOG)).splitlines())
    return (f"{user}worker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
            f"events {{ worker_connections 4096; }}\nhttp {{\n{temps}{body}}}\n")


@dataclasses.dataclass
class Deployment:
    url: str  # nginx's address, what visitors open
    replicas: list[str]  # each replica's own address (127.0.0.1:port)
    procs: list[subprocess.Popen]  # the replicas' processes, in the order of `replicas`
    nginx: subprocess.Popen
    folder: Path  # nginx's config and logs, the replicas' logs

    def routes(self) -> list[tuple[str, str, int, str]]:
        """The access log as (cookie or "-", replica that answered, status, request line), in order."""
        rows = []
        for line in (self.folder / ACCESS_LOG).read_text().splitlines():
            head, _, request = line.partition(' "')
            _, cookie, replica, status = head.split()[:4]
            rows.append((cookie, replica, int(status) if status.isdigit() else 0, request.rstrip('"')))
        return rows


@contextlib.contextmanager
def serve(replicas: int = 2, port: int = 8080, host: str = "127.0.0.1", ports: list[int] | None = None,
          folder: Path | None = None, env: dict | None = None, start_s: float = 180.0):
    """`replicas` copies of `python app.py` on 127.0.0.1:`ports` (free ones by default) behind nginx on
    host:`port`; yields a Deployment, and stops them all on exit. `env`: more variables for the replicas."""
    nginx = nginx_binary()
    if nginx is None:
        raise RuntimeError("nginx is not installed: apt-get install nginx (Debian), or see docs/deploy.md")
    ports = ports or [free_port() for _ in range(replicas)]
    own_folder = folder is None
    folder = Path(tempfile.mkdtemp(prefix="attention-explorer-nginx-")) if own_folder else Path(folder)
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / "tmp" / kind).mkdir(parents=True, exist_ok=True)
    procs, server = [], None
    try:
        for i, p in enumerate(ports):
            e = {**os.environ, "GRADIO_SERVER_PORT": str(p), "GRADIO_SERVER_NAME": "127.0.0.1",
                 "GRADIO_ANALYTICS_ENABLED": "False", BEHIND_PROXY_ENV: "1", **(env or {})}
            with open(folder / f"replica-{i + 1}.log", "wb") as log:
                procs.append(subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=e, stdout=log,
                                              stderr=subprocess.STDOUT))
        for i, (proc, p) in enumerate(zip(procs, ports)):
            wait_until_up(proc, f"http://127.0.0.1:{p}/", start_s,
                          f"replica {i + 1} (its log: {folder / f'replica-{i + 1}.log'})")
        conf = folder / "nginx.conf"
        conf.write_text(standalone_config(folder, ports, f"{host}:{port}"))
        server = subprocess.Popen([nginx, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf),
                                   "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
        try:
            wait_until_up(server, url, 30, "nginx")
        except RuntimeError as e:
            log = (folder / "error.log").read_text() if (folder / "error.log").exists() else ""
            raise RuntimeError(f"{e}: {log.strip()[-500:] or server.stderr.read().decode()[-500:]}") from None
        yield Deployment(url, [f"127.0.0.1:{p}" for p in ports], procs, server, folder)
    finally:
        if server is not None:
            stop(server)
        for proc in procs:
            stop(proc)
        if own_folder and not os.environ.get("ATTN_EXPLORER_KEEP_DEPLOY_LOGS"):
            shutil.rmtree(folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replicas", type=int, default=2, help="copies of the app (about 0.7 GB of memory each)")
    ap.add_argument("--port", type=int, default=8080, help="where nginx listens")
    ap.add_argument("--host", default="127.0.0.1", help="0.0.0.0: every interface (a course's server)")
    ap.add_argument("--first-port", type=int, default=7861, help="the replicas listen on this port and the next")
    ap.add_argument("--print-config", action="store_true",
                    help="print the http-level config for a server's own nginx (conf.d) and exit")
    args = ap.parse_args()
    if args.replicas < 1:
        ap.error("--replicas must be at least 1")
    ports = list(range(args.first_port, args.first_port + args.replicas))
    if args.print_config:
        print(http_config(ports, f"{args.host}:{args.port}"), end="")
        return
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # a service manager's stop: the finally below
    print(f"starting {args.replicas} replicas on ports {ports[0]}-{ports[-1]} ...", flush=True)
    try:
        folder = Path(tempfile.mkdtemp(prefix="attention-explorer-nginx-"))  # kept: the logs outlive the run
        with serve(args.replicas, args.port, args.host, ports, folder=folder) as d:
            print(f"Attention Explorer: {d.url} ({args.replicas} replicas; logs in {d.folder}); Ctrl-C stops",
                  flush=True)
            while all(p.poll() is None for p in [*d.procs, d.nginx]):
                time.sleep(1)
            print("a replica or nginx exited: stopping", file=sys.stderr)
            sys.exit(1)
    except KeyboardInterrupt:
        pass
    except RuntimeError as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
