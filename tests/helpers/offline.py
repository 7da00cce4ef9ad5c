"""The first lines of a Python program that make the network unreachable to it: every connect and name lookup
raises, as on a machine with no network. For a test that a step needs nothing from outside (a model loaded from
its wheel, a command ranking offline)."""

from __future__ import annotations

__all__ = ["UNREACHABLE"]

UNREACHABLE = """
import socket

def refused(*args, **kwargs):
    raise OSError("the network is unreachable in this test")

socket.socket.connect = refused
socket.socket.connect_ex = refused
socket.getaddrinfo = refused
socket.create_connection = refused
"""
