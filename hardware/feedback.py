"""What the table sees and hears: a LED per seat and one buzzer.

On a slap ruling the winner's LED lights and the buzzer beeps once; on a tie the tied
seats' LEDs blink and the buzzer beeps twice. A wrong smackdown blinks the offender's LED
three times. Every part is optional: a seat without ``led_pin`` and a table without
``buzzer_pin`` make the matching calls do nothing, so the referee never has to ask.

LEDs are wired GPIO -> resistor -> LED -> ground (active high); the buzzer is an active
buzzer, or a transistor driving one, on its GPIO (docs/wiring.md). gpiozero runs the
blinking in its own background threads; ``wait=True`` blocks until the pattern is done.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpiozero import LED, Buzzer

from hardware.arbiter import SlapResult
from hardware.pads import SeatPins, pin_assignments
from hardware.pins import check_pins


class Feedback:
    """LEDs by seat and the buzzer, on the pin factory the pads use."""

    def __init__(
        self,
        seats: Iterable[SeatPins],
        buzzer_pin: int | None = None,
        *,
        pin_factory: Any = None,
        winner_s: float = 1.5,
        blink_s: float = 0.15,
        beep_s: float = 0.12,
    ) -> None:
        seats = tuple(seats)
        check_pins(pin_assignments(seats, buzzer_pin))
        self.winner_s, self.blink_s, self.beep_s = winner_s, blink_s, beep_s
        self.leds: dict[int, LED] = {}
        self.buzzer: Buzzer | None = None
        try:
            for s in seats:
                if s.led_pin is not None:
                    self.leds[s.seat] = LED(s.led_pin, pin_factory=pin_factory)
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    @property
    def enabled(self) -> bool:
        return bool(self.leds) or self.buzzer is not None

    def light(self, seat: int, seconds: float | None = None, *, wait: bool = False) -> None:
        """Light ``seat``'s LED for ``seconds`` (default: the winner's time), then off."""
        led = self.leds.get(seat)
        if led is not None:
            led.blink(
                on_time=self.winner_s if seconds is None else seconds, off_time=0, n=1, background=not wait
            )

    def blink(self, seat: int, times: int = 3, *, wait: bool = False) -> None:
        led = self.leds.get(seat)
        if led is not None:
            led.blink(on_time=self.blink_s, off_time=self.blink_s, n=times, background=not wait)

    def beep(self, times: int = 1, *, wait: bool = False) -> None:
        if self.buzzer is not None:
            self.buzzer.beep(on_time=self.beep_s, off_time=self.beep_s, n=times, background=not wait)

    def ruling(self, result: SlapResult, *, wait: bool = False) -> None:
        """Show a slap ruling: the winner lit and one beep, or the tied seats blinking
        and two beeps."""
        if result.tie:
            for seat in result.tied:
                self.blink(seat, wait=False)
            self.beep(2, wait=wait)
        elif result.winner is not None:
            self.light(result.winner)
            self.beep(1, wait=wait)
        if wait:
            self.join()

    def wrong_smackdown(self, seat: int, *, wait: bool = False) -> None:
        """The offender's LED blinks three times."""
        self.blink(seat, 3, wait=wait)

    def join(self) -> None:
        """Wait until every LED and the buzzer have finished their patterns."""
        devices: list[Any] = [*self.leds.values(), self.buzzer]
        for device in devices:
            thread = getattr(device, "_blink_thread", None) if device is not None else None
            if thread is not None:
                thread.join()

    def off(self) -> None:
        for led in self.leds.values():
            led.off()
        if self.buzzer is not None:
            self.buzzer.off()

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        self.leds.clear()
        if self.buzzer is not None:
            self.buzzer.close()
            self.buzzer = None

    def __enter__(self) -> Feedback:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
