"""A child program (mpremote) whose output is passed on as it comes, ended when it goes quiet.

mpremote waits for a board that stopped answering without a word (issue 34: over 60 s); a
copy in progress names every file it copies, so a long silence means it hangs.
"""

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

CHUNK = 4096  # bytes read at a time (mpremote's progress bar has no newline)


@dataclass
class Watched:
    """How the program ended: its exit status (None: ended by us after `silent_s`), its
    output, and how long it had been quiet when it ended."""

    status: int | None
    output: str
    quiet_s: float = 0.0


def run_watched(command, out=print, silent_s=30.0, total_s=600.0, clock=time.monotonic):
    """Run `command` (stderr into stdout), passing each output line to `out`; end it (kill)
    when it prints nothing for `silent_s` or runs past `total_s`."""
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=sys.platform != "win32",  # its children end with it (_end)
    )
    chunks = queue.Queue()
    reader = threading.Thread(target=_pump, args=(proc.stdout, chunks.put), daemon=True)
    reader.start()
    said, line = [], ""
    started = heard = clock()
    try:
        while True:
            wait = min(heard + silent_s, started + total_s) - clock()
            try:
                chunk = chunks.get(timeout=max(0.0, wait))
            except queue.Empty:
                _end(proc)
                return Watched(None, "".join(said), clock() - heard)
            if chunk is None:
                break
            heard = clock()
            text = chunk.decode("utf-8", "replace")
            said.append(text)
            *done, line = (line + text).split("\n")
            for each in done:
                out(each.rstrip("\r"))
        if line.strip():
            out(line.rstrip("\r"))
        return Watched(proc.wait(), "".join(said))
    finally:
        if proc.poll() is None:
            _end(proc)
        proc.wait()
        reader.join()
        proc.stdout.close()


def _end(proc):
    """Kill the program and whatever it started (they would keep its output open)."""
    if sys.platform == "win32":
        proc.kill()
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:  # ended meanwhile
        pass


def _pump(stream, put):
    """Hand the stream's bytes to `put` as they come; None at its end."""
    try:
        while chunk := stream.read1(CHUNK):
            put(chunk)
    finally:
        put(None)
