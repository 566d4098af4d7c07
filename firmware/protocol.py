"""The serial wire protocol (docs/protocol.md): framing, CRC-32, sequence numbers, bounded lines.

Pure and shared: the firmware imports it as `protocol` on MicroPython, the host bridge as
`firmware.protocol` on CPython. It imports nothing from the firmware, only `binascii`.
A line is `<seq> <TYPE>[ <key=value>...] *<crc32 of everything before " *", 8 hex>\n`.
"""

from binascii import crc32

try:
    from micropython import const
except ImportError:  # CPython

    def const(expr):  # type: ignore[no-redef,misc]
        return expr


PROTO_VERSION = const(1)
MAX_LINE = const(120)  # bytes on the wire, including the "\n"; longer lines are discarded
SEQ_MOD = const(65536)  # sequence numbers count 0..65535 and wrap
_SEQ_HALF = const(32768)
_CRC_LEN = const(8)
_MARK = b" *"
_NL = const(10)
_CR = const(13)
_SPACE = const(32)
_TILDE = const(126)
_ZERO = const(48)
_NINE = const(57)
_A_LOWER = const(97)
_F_LOWER = const(102)

# Message types. Host -> device: HELLO SET ARM DISARM HB ACK NAK.
# Device -> host: HELLO ACK NAK PRESS REVEAL HB.
HELLO = "HELLO"
SET = "SET"
ARM = "ARM"
DISARM = "DISARM"
HB = "HB"
ACK = "ACK"
NAK = "NAK"
PRESS = "PRESS"
REVEAL = "REVEAL"
#: Types the receiver must acknowledge (ACK or NAK); the sender retries them until it is.
RELIABLE_FROM_HOST = (SET, ARM, DISARM)
RELIABLE_FROM_DEVICE = (PRESS, REVEAL)

# Reasons, in ProtocolError.reason and in `NAK err=`.
E_LONG = "long"  # over MAX_LINE before the newline
E_FORMAT = "format"  # not `<seq> <TYPE> ... *<crc>` or not printable ASCII
E_CRC = "crc"  # CRC mismatch
E_TYPE = "type"  # well-formed but unknown message type (NAK)
E_FIELD = "field"  # a required field is missing or not a number (NAK)
E_RANGE = "range"  # a field is out of range (NAK)
E_FAULT = "fault"  # the command's state made the box's code raise: held back (NAK)

#: Characters a free-text field value (`fault=`) carries as they are; any other byte is sent
#: as `%xx` (two lower-case hex digits), so a value never holds a space, `=` or `*`.
_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;'()_-/<>[]!?"


class ProtocolError(ValueError):
    """A line that cannot be accepted; `reason` is one of the E_* codes."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason + (": " + detail if detail else ""))
        self.reason = reason


class Message:
    """One decoded line: sequence number, type and the raw payload text."""

    def __init__(self, seq: int, kind: str, payload: str = "") -> None:
        self.seq = seq
        self.kind = kind
        self.payload = payload

    def fields(self) -> dict[str, str]:
        """The payload as a dict of str -> str."""
        return parse_fields(self.payload)

    def __eq__(self, other):
        return (
            isinstance(other, Message)
            and self.seq == other.seq
            and self.kind == other.kind
            and self.payload == other.payload
        )

    def __repr__(self):
        return f"Message({self.seq}, {self.kind!r}, {self.payload!r})"


def encode(seq: int, kind: str, payload: str = "") -> bytes:
    """The exact bytes of one line, newline included."""
    text = f"{seq} {kind} {payload}" if payload else f"{seq} {kind}"
    line = f"{text} *{crc32(text.encode()) & 0xFFFFFFFF:08x}\n".encode()
    if len(line) > MAX_LINE:
        raise ProtocolError(E_LONG, f"{len(line)} bytes")
    return line


def decode(line: bytes | bytearray) -> Message:
    """Check and split one received line (bytes, with or without the newline) into a Message."""
    end = len(line)
    if end and line[end - 1] == _NL:
        end -= 1
    if end and line[end - 1] == _CR:
        end -= 1
    if end >= MAX_LINE:
        raise ProtocolError(E_LONG)
    for i in range(end):
        if not _SPACE <= line[i] <= _TILDE:
            raise ProtocolError(E_FORMAT, f"byte {line[i]}")
    mark = bytes(line[:end]).rfind(_MARK)
    if mark < 0 or end - mark - 2 != _CRC_LEN:
        raise ProtocolError(E_FORMAT, "no *crc")
    body = bytes(line[:mark])
    digits = bytes(line[mark + 2 : end])
    # Lower-case only (docs/protocol.md): int(.., 16) alone would take "C" for "c", so a
    # changed byte could pass unnoticed.
    for digit in digits:
        if not (_ZERO <= digit <= _NINE or _A_LOWER <= digit <= _F_LOWER):
            raise ProtocolError(E_FORMAT, "crc not lower-case hex")
    crc = int(digits, 16)
    if crc != crc32(body) & 0xFFFFFFFF:
        raise ProtocolError(E_CRC)
    return _split_body(body.decode())


def _split_body(text: str) -> Message:
    """`<seq> <TYPE>[ <payload>]` -> Message, checking the seq and the type's shape."""
    parts = text.split(" ", 2)
    if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isalpha():
        raise ProtocolError(E_FORMAT, "body")
    seq = int(parts[0])
    if seq >= SEQ_MOD or not parts[1].isupper():
        raise ProtocolError(E_FORMAT, "seq or type")
    return Message(seq, parts[1], parts[2] if len(parts) > 2 else "")


def parse_fields(payload: str) -> dict[str, str]:
    """`a=1 b=x` -> {"a": "1", "b": "x"}; tokens without "=" are a format error."""
    out: dict[str, str] = {}
    for token in payload.split(" "):
        if not token:
            continue
        eq = token.find("=")
        if eq <= 0:
            raise ProtocolError(E_FORMAT, "field " + token)
        out[token[:eq]] = token[eq + 1 :]
    return out


def format_fields(pairs: list[tuple[str, object]]) -> str:
    """[("a", 1), ("b", "x")] -> "a=1 b=x", in the given order (both sides agree byte for byte)."""
    return " ".join(f"{k}={v}" for k, v in pairs)


def escape_text(text: str, limit: int) -> str:
    """`text` as a field value of at most `limit` characters (`%xx` for other characters;
    cut before an escape that would not fit)."""
    out = ""
    for ch in text:
        part = ch if ch in _PLAIN else "%" + f"{ord(ch) & 0xFF:02x}"
        if len(out) + len(part) > limit:
            break
        out += part
    return out


def unescape_text(value: str) -> str:
    """A field value made by `escape_text` back to its text (a broken escape stays as is)."""
    out = []
    i = 0
    while i < len(value):
        digits = value[i + 1 : i + 3]
        if value[i] == "%" and len(digits) == 2 and all(c in "0123456789abcdef" for c in digits):
            out.append(chr(int(digits, 16)))
            i += 3
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def seq_next(seq: int) -> int:
    """The sequence number after `seq`."""
    return (seq + 1) % SEQ_MOD


def seq_newer(seq: int, last: int | None) -> bool:
    """True if `seq` comes after `last` (serial-number arithmetic; `last` None accepts any)."""
    if last is None:
        return True
    diff = (seq - last) % SEQ_MOD
    return 0 < diff < _SEQ_HALF


def seats_to_mask(text: str) -> int:
    """ "1,3,4" -> 0b1101 (seat n is bit n-1); empty text -> 0; raises ProtocolError."""
    mask = 0
    for item in text.split(","):
        if not item:
            continue
        if not item.isdigit() or not 1 <= int(item) <= 30:
            raise ProtocolError(E_RANGE, "seat " + item)
        mask |= 1 << (int(item) - 1)
    return mask


def mask_to_seats(mask: int) -> str:
    """0b1101 -> "1,3,4"."""
    return ",".join(str(i + 1) for i in range(30) if mask >> i & 1)


class LineReader:
    """Reassembles lines from received chunks in a fixed buffer; over-long lines are dropped.

    `feed()` returns the complete lines (bytes, newline stripped). Past MAX_LINE bytes without
    a newline the partial line is discarded, `overflows` counts it, and everything up to the next
    newline is skipped: the reader resynchronises on the next line.
    """

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._buf = bytearray(max_line)
        self._n = 0
        self._skipping = False
        self.overflows = 0

    def feed(self, data: bytes | bytearray, n: int = -1) -> list[bytes]:
        """Take `n` bytes (all if -1) of `data`; return the list of lines they completed."""
        lines: list[bytes] = []
        if n < 0:
            n = len(data)
        buf = self._buf
        size = len(buf)
        for i in range(n):
            b = data[i]
            if b == _NL:
                if not self._skipping:
                    lines.append(bytes(buf[: self._n]))
                self._n = 0
                self._skipping = False
            elif self._skipping:
                continue
            elif self._n >= size - 1:  # no room left for this byte and the newline
                self._n = 0
                self._skipping = True
                self.overflows += 1
            else:
                buf[self._n] = b
                self._n += 1
        return lines

    def reset(self) -> None:
        """Forget a partial line."""
        self._n = 0
        self._skipping = False
