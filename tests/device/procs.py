"""`companion ...` as a child process: lines out with deadlines, Ctrl-C, reaped in the end."""

import os
import queue
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXIT_S = 10.0


@contextmanager
def _ctrl_c_as_at_a_terminal():
    """A child started meanwhile takes Ctrl-C as at a terminal. A run started in the background
    (`cmd &` in a script) ignores SIGINT, an ignored signal stays ignored across exec, and the
    child then let Ctrl-C pass without a word (its /proc status said SigIgn 0x...1006)."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    ):
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)  # caught: reset to default by exec
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class Companion:
    """`python -m companion_app.cli ARGS`; stdout lines arrive on a queue."""

    def __init__(self, *args, env=None):
        with _ctrl_c_as_at_a_terminal():
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "companion_app.cli", *args],
                cwd=REPO,
                env={**os.environ, **(env or {})},
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        self.lines = queue.Queue()
        self.errors = []
        self._threads = [
            threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put)),
            threading.Thread(target=self._pump, args=(self.proc.stderr, self.errors.append)),
        ]
        for thread in self._threads:
            thread.start()

    @staticmethod
    def _pump(stream, put):
        """Hand each line of `stream` to `put`."""
        for line in stream:
            put(line.rstrip("\n"))

    def line(self, test, timeout):
        """The first stdout line for which test(line) holds (AssertionError after timeout)."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no such line; stderr: {self.errors}") from None
            if test(line):
                return line

    def interrupt(self):
        """Ctrl-C and wait; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=EXIT_S)
        except subprocess.TimeoutExpired:
            said = f"stderr {self.errors}; {self._signals_and_threads()}"
            raise AssertionError(f"still running {EXIT_S} s after Ctrl-C: {said}") from None
        finally:
            self.close()

    def _signals_and_threads(self) -> str:
        """Where a child that outlived Ctrl-C stands: its signal masks (pending, blocked,
        ignored, caught) and each thread's state and wait channel, from /proc (Linux)."""
        proc = Path(f"/proc/{self.proc.pid}")
        try:
            status = (proc / "status").read_text().splitlines()
            masks = [line for line in status if line.startswith(("ShdPnd", "Sig"))]
            threads = [
                f"{(task / 'comm').read_text().strip()} {(task / 'stat').read_text().split()[2]} "
                f"{(task / 'wchan').read_text()}"
                for task in sorted((proc / "task").iterdir())
            ]
        except OSError as exc:
            return f"no /proc view ({exc})"
        return f"{masks}; threads {threads}"

    def close(self):
        """Kill if still running, reap, join the readers, close the pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for thread in self._threads:
            thread.join()
        self.proc.stdout.close()
        self.proc.stderr.close()
