#!/usr/bin/env python3
"""Shared by the scripts that write results: the one check of an output directory, asked
before anything runs, so a path that cannot be a directory is refused up front (one error
line, no traceback, nothing written), not found out by the first write after the work; and
the one way a table shows a figure that summary.json leaves null (a statistic of no flow)."""
import os


def num(v, spec):
    """v formatted by spec, or "-" when v is None (summary.json's null: no value to show)."""
    return "-" if v is None else format(v, spec)


def dir_problem(path):
    """Why `path` can be neither used nor created as a directory, or None when it can."""
    if not path:
        return "an empty path names no directory"
    p = os.path.abspath(path)
    if os.path.isdir(p):
        return None if os.access(p, os.W_OK | os.X_OK) else "is not writable"
    if os.path.lexists(p):
        return "exists and is not a directory"
    up = os.path.dirname(p)
    while not os.path.lexists(up):
        up = os.path.dirname(up)
    if not os.path.isdir(up):
        return f"cannot be created: {up} is not a directory"
    if not os.access(up, os.W_OK | os.X_OK):
        return f"cannot be created: {up} is not writable"
    return None
