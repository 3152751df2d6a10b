"""Hostile: connects to the database and the broker, by unix socket (`unix`) and by TCP (`tcp`)."""

import socket

from common import play


def attack(targets):
    got = {}
    for path in targets["unix"]:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
                connection.settimeout(2)
                connection.connect(path)
            got[path] = "connected"
        except OSError as exc:
            got[path] = type(exc).__name__
    for host, port in targets["tcp"]:
        try:
            socket.create_connection((host, port), timeout=2).close()
            got[f"{host}:{port}"] = "connected"
        except OSError as exc:
            got[f"{host}:{port}"] = type(exc).__name__
    return got


play(attack)
