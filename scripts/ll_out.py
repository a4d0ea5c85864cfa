#!/usr/bin/env python3
"""The one check of an output directory, shared by the scripts that write one: asked before
anything runs, so a path that cannot be a directory is refused up front (one error line, no
traceback, nothing written), not found out by the first write after the work."""
import os


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
