"""Optional passive piezo on a PWM pin: short, non-blocking beeps (countdown ticks, reveal)."""

from compat import ticks_add, ticks_diff


class Piezo:
    """Beeps on a `machine.PWM`; `poll(now)` ends a beep when its time is up."""

    DUTY = 32768  # 50 % of duty_u16: loudest square wave
    TICK_HZ = 1760  # countdown tick
    REVEAL_HZ = 2637  # reveal chirp
    TICK_MS = 40
    REVEAL_MS = 150

    def __init__(self, pwm):
        self._pwm = pwm
        self._pwm.duty_u16(0)
        self._on = False
        self._until = 0

    def beep(self, now: int, freq: int, ms: int) -> None:
        """Start a tone of `freq` Hz for `ms` milliseconds (cuts a running one)."""
        self._pwm.freq(freq)
        self._pwm.duty_u16(self.DUTY)
        self._on = True
        self._until = ticks_add(now, ms)

    def poll(self, now: int) -> None:
        """Silence the piezo once the beep has lasted long enough."""
        if self._on and ticks_diff(now, self._until) >= 0:
            self._pwm.duty_u16(0)
            self._on = False

    def deinit(self) -> None:
        """Silence and release the PWM channel."""
        self._pwm.duty_u16(0)
        self._pwm.deinit()
        self._on = False
