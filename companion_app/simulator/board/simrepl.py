"""The simulated board's REPL: MicroPython's pyexec.c (v1.27, the ESP32 port's blocking REPL)
in Python, on the simulated UART0, so mpremote and `companion firmware deploy` talk to it as
to a DevKitC.

- The friendly REPL (`>>> `, readline's control keys on an empty line, paste mode on Ctrl-E)
  and the raw REPL (Ctrl-A; Ctrl-D runs the line, answering `OK`, the output, `\\x04`, the
  error, `\\x04`; Ctrl-D on an empty line is a soft reset; Ctrl-B back to friendly).
- Raw-paste mode (`\\x05A\\x01`): `R\\x01`, a window of 128 bytes (half of
  MICROPY_REPL_STDIN_BUFFER_MAX), `\\x01` each time a window has been read, `\\x04` at the end.
- Code runs in the board's `__main__` globals with Ctrl-C as the interrupt character.
`run()` returns when the REPL asks for a soft reset; simboot.py does the rest.
"""

import sys

import simhost
from simhost import STDOUT, UART0, wait_ms

CTRL_A, CTRL_B, CTRL_C, CTRL_D, CTRL_E = 1, 2, 3, 4, 5
FORCED_EXIT = 0x100  # PYEXEC_FORCED_EXIT: leave the REPL for a soft reset
NORMAL, UNHANDLED = 1, 0  # PYEXEC_NORMAL_EXIT, PYEXEC_UNHANDLED_EXCEPTION (no exit codes)
FRIENDLY, RAW = "friendly", "raw"
STDIN_BUFFER_MAX = 256  # MICROPY_REPL_STDIN_BUFFER_MAX (the ESP32 port keeps the default)
BUSY_MS = 1  # look at the line this often while bytes are coming...
IDLE_MS = 5  # ...and this often once it has been quiet for QUIET_LOOKS looks
QUIET_LOOKS = 100
BACKSPACE = (8, 127)
ESC = 27
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_BANNER = b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== "
COMPOUND = ("if", "while", "for", "try", "with", "def", "class", "async")

mode = [FRIENDLY]  # pyexec_mode_kind: a soft reset keeps it, a hard reset starts friendly
_one = bytearray(1)
_quiet = [0]


def write(data):
    """Raw bytes out on the UART (mp_hal_stdout_tx_strn)."""
    STDOUT.write(data)


def rx():
    """The next byte from the line, waiting as long as it takes (timers run meanwhile)."""
    while not UART0.readinto(_one):
        _quiet[0] += 1
        wait_ms(IDLE_MS if _quiet[0] > QUIET_LOOKS else BUSY_MS, BUSY_MS)
    _quiet[0] = 0
    return _one[0]


def banner():
    """The friendly REPL's greeting, as the ESP32 port prints it."""
    version = ".".join(str(n) for n in sys.implementation.version[:3])
    write(
        b"MicroPython v%s on 2025-12-09; Generic ESP32 module with ESP32 (simulated box)\r\n"
        % version.encode()
    )
    write(b'Type "help()" for more information.\r\n')


# ----- running code -------------------------------------------------------------------------


def execute(source, globals_, kind="exec", print_eof=False, name="<stdin>"):
    """parse_compile_execute: compile and run `source` with Ctrl-C as the interrupt; NORMAL,
    UNHANDLED after an exception (printed, as the board prints it), FORCED_EXIT after
    SystemExit. A Ctrl-C that came while the code ran and never waited raises at its end."""
    ret = NORMAL
    simhost.kbd_intr(CTRL_C)
    try:
        exec(compile(source, name, kind), globals_)
        simhost.take_interrupt()
    except SystemExit:
        ret = FORCED_EXIT
    except BaseException as exc:  # the board prints any other exception and carries on
        simhost.kbd_intr(-1)
        simhost.interrupt[1] = False
        if print_eof:
            write(b"\x04")
        sys.print_exception(exc)
        ret = UNHANDLED
    finally:
        simhost.kbd_intr(-1)
        simhost.sync_flash()  # what the command wrote is on the flash now
    if print_eof:
        write(b"\x04" if ret == UNHANDLED else b"\x04\x04")
    return ret


def raw_paste(command, globals_):
    """Raw-paste mode (`\\x05` + command + Ctrl-A): 0, or FORCED_EXIT."""
    if command != ord("A"):
        write(b"R\x00")  # a command this board does not know
        return 0
    write(b"R\x01")
    window = STDIN_BUFFER_MAX // 2
    write(bytes((window & 0xFF, window >> 8, 1)))
    remain = window
    source = bytearray()
    while True:
        c = rx()
        if c in (CTRL_C, CTRL_D):
            write(b"\x04")  # the end, seen
            if c == CTRL_C:
                write(b"\x04")
                sys.print_exception(KeyboardInterrupt())
                write(b"\x04")
                return 0
            break
        remain -= 1
        if remain == 0:
            write(b"\x01")  # another window is free
            remain = window
        source.append(c)
    return execute(bytes(source), globals_, print_eof=True)


def raw_repl(globals_):
    """pyexec_raw_repl: 0 when it goes back to the friendly REPL, else FORCED_EXIT."""
    while True:
        write(RAW_BANNER)
        reset = False
        while not reset:
            line = bytearray()
            write(b">")
            while True:
                c = rx()
                if c == CTRL_A:
                    if len(line) == 2 and line[0] == CTRL_E:
                        ret = raw_paste(line[1], globals_)
                        if ret & FORCED_EXIT:
                            return ret
                        line = bytearray()
                        write(b">")
                        continue
                    reset = True  # back to the banner
                    break
                if c == CTRL_B:
                    write(b"\r\n")
                    mode[0] = FRIENDLY
                    return 0
                if c == CTRL_C:
                    line = bytearray()
                elif c == CTRL_D:
                    break
                else:
                    line.append(c)
            if reset:
                break
            write(b"OK")
            if not line:
                write(b"\r\n")
                return FORCED_EXIT
            ret = execute(bytes(line), globals_, print_eof=True)
            if ret & FORCED_EXIT:
                return ret


# ----- the friendly REPL ----------------------------------------------------------------------


def readline(prompt):
    """One line with echo; (text, 0) on Enter, or ("", control character) on an empty line
    (Ctrl-A..E) and on Ctrl-C at any time."""
    write(prompt)
    line = bytearray()
    escape = 0
    while True:
        c = rx()
        if escape:  # the rest of an arrow key's escape sequence: not simulated
            escape = escape + 1 if c == ord("[") or escape == 1 else 0
            if escape > 2:
                escape = 0
            continue
        if CTRL_A <= c <= CTRL_E and not line or c == CTRL_C:
            return "", c
        if c == 13:
            write(b"\r\n")
            return bytes(line).decode(), 0
        if c in BACKSPACE and line:
            line.pop()
            write(b"\x08 \x08")
        elif c == ESC:
            escape = 1
        elif 32 <= c <= 126:
            line.append(c)
            write(bytes((c,)))


def continues(text):
    """mp_repl_continue_with_input: True while the statement needs another line."""
    if not text:
        return False
    first = text.split("\n")[0]
    word = first.split("(")[0].split(" ")[0].split(":")[0]
    compound = first.startswith("@") or word in COMPOUND
    depth = 0
    quote = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote is None and text[i : i + 3] in ('"""', "'''"):
            quote = text[i : i + 3]
            i += 3
            continue
        if quote is not None and text[i : i + len(quote)] == quote:
            i += len(quote)
            quote = None
            continue
        if quote is None and ch in "'\"":
            quote = ch
        elif quote is None and ch in "([{":
            depth += 1
        elif quote is None and ch in ")]}":
            depth -= 1
        elif ch == "\\" and quote is not None:
            i += 1
        i += 1
    if quote is not None and len(quote) == 3 or depth > 0 and quote is None:
        return True
    if text.endswith("\\"):
        return True
    return compound and not text.endswith("\n")


def paste(globals_):
    """Paste mode (Ctrl-E): echo until Ctrl-D runs it all, Ctrl-C cancels."""
    write(PASTE_BANNER)
    source = bytearray()
    while True:
        c = rx()
        if c == CTRL_C:
            write(b"\r\n")
            return 0
        if c == CTRL_D:
            write(b"\r\n")
            return execute(bytes(source), globals_)
        source.append(c)
        write(b"\r\n=== " if c == 13 else bytes((c,)))


def friendly_repl(globals_):
    """pyexec_friendly_repl: 0 when it goes to the raw REPL, else FORCED_EXIT."""
    banner()
    while True:
        text, control = readline(b">>> ")
        if control == CTRL_A:
            write(b"\r\n")
            mode[0] = RAW
            return 0
        if control == CTRL_B:
            write(b"\r\n")
            banner()
            continue
        if control == CTRL_C:
            write(b"\r\n")
            continue
        if control == CTRL_D:
            write(b"\r\n")
            return FORCED_EXIT
        if control == CTRL_E:
            ret = paste(globals_)
        elif not text:
            continue
        else:
            ret = _statement(text, globals_)
        if ret & FORCED_EXIT:
            return ret


def _statement(text, globals_):
    """Read the rest of a compound statement, then run it as the REPL does (values shown)."""
    while continues(text):
        more, control = readline(b"... ")
        if control == CTRL_C:
            write(b"\r\n")
            return 0
        if control == CTRL_D:
            break
        text += "\n" + more
    return execute(text + "\n", globals_, kind="single")


def run(globals_):
    """The REPL until it asks for a soft reset (pyexec's loop in the ESP32 port's main.c)."""
    while True:
        if mode[0] == RAW:
            ret = raw_repl(globals_)
        else:
            ret = friendly_repl(globals_)
        if ret != 0:
            return ret
