"""The box's plug-in (inrush) current through its soft start, from a simple MOSFET model.

Run it: `python3 hardware/inrush.py` prints the peak USB current at plug-in for the gate
network in pinout.json (`circuit.soft_start`) and for the one it replaced, over the MOSFET's
threshold spread; BOM.md's figure is this script's output (tests/firmware/test_hardware.py
holds them equal).

The model ("square-law MOSFET soft start"): USB 5 V appears at once on the P-MOSFET's source.
The gate capacitor (gate to source) holds V_GS at 0, then charges through the gate resistor to
GND, so |V_GS| = 5 V x (1 - exp(-t / RC)). The MOSFET conducts once |V_GS| passes its threshold
V_th: in saturation I = K (|V_GS| - V_th)^2, in the linear region (V_DS below the overdrive)
I = K (2 (|V_GS| - V_th) V_DS - V_DS^2), K from the datasheet's transconductance
(g_fs = 2 sqrt(K I)). The drain charges the strip's bulk capacitor and feeds the 18 idle pixels
(a resistive load). The MOSFET's own gate capacitances (hundreds of pF) are left out: next to
microfarads their Miller current is a few hundred nA against tens of uA through the resistor.
Integrated in 1 us steps (forward Euler; halving the step moves the peak by under 0.1 %).
"""

import json
import math
import sys
from pathlib import Path

PINOUT = Path(__file__).resolve().parent / "pinout.json"
MODEL = "square-law MOSFET soft start (hardware/inrush.py)"
STEP_S = 1e-6
END_S = 10.0  # every network here has charged the bulk capacitor well before this
#: AO3401A datasheet: g_fs 9 S at I_D = -4 A (V_DS = -5 V), so K = g_fs^2 / (4 I_D).
K_A_PER_V2 = 9**2 / (4 * 4)
#: The gate network the box had before the model (BOM.md said 55 mA for it).
OLD_NETWORK = {"gate_to_gnd_ohm": 100_000, "gate_to_source_uf": 1}


def pinout():
    """hardware/pinout.json."""
    return json.loads(PINOUT.read_text())


def peak_current_a(r_ohm, c_uf, v_th, bulk_uf, load_ohm, volts=5.0, k=K_A_PER_V2):
    """(peak drain current in A, when in s) at plug-in through the soft start."""
    tau = r_ohm * c_uf * 1e-6
    bulk = bulk_uf * 1e-6
    v_out = peak = when = 0.0
    t = -tau * math.log(1 - v_th / volts)  # nothing flows before the gate reaches V_th
    while t < END_S:
        overdrive = volts * (1 - math.exp(-t / tau)) - v_th
        v_ds = volts - v_out
        if v_ds >= overdrive:
            current = k * overdrive**2
        else:
            current = k * (2 * overdrive * v_ds - v_ds**2)
        if current > peak:
            peak, when = current, t
        elif v_out > 0.99 * volts and current < peak / 2:
            break  # charged: from here on only the idle pixels draw
        v_out += (current - v_out / load_ohm) * STEP_S / bulk
        t += STEP_S
    return peak, when


def fully_on_s(r_ohm, c_uf, volts=5.0, full_v=2.5):
    """When |V_GS| reaches `full_v` (the datasheet's R_DS(on) at -2.5 V: the switch fully on)."""
    return r_ohm * c_uf * 1e-6 * math.log(volts / (volts - full_v))


def let_go_s(r_ohm, c_uf, v_th, volts=5.0):
    """After an unplug, how long the gate capacitor keeps the switch on: the gate is dragged
    to -5 V with the source and drifts back to GND through the resistor. A replug sooner finds
    the switch on and gets no soft start."""
    return r_ohm * c_uf * 1e-6 * math.log(volts / v_th)


def worst_peak(network, data=None, k=K_A_PER_V2):
    """(worst peak in mA over the threshold spread, the threshold that gives it)."""
    data = data or pinout()
    soft, power, circuit = data["circuit"]["soft_start"], data["power"], data["circuit"]
    load_ohm = power["supply_v"] / (data["led"]["count"] * power["led_idle_ma"] / 1000)
    peaks = []
    for v_th in soft["gate_threshold_v_range"]:
        peak, _ = peak_current_a(
            network["gate_to_gnd_ohm"],
            network["gate_to_source_uf"],
            v_th,
            circuit["bulk_capacitor_uf"],
            load_ohm,
            power["supply_v"],
            k,
        )
        peaks.append((round(peak * 1000), v_th))
    return max(peaks)


def ohms(value):
    """A resistance as the docs write it: "330 ohm", "10 kohm", "1 Mohm"."""
    for unit, scale in (("Mohm", 1_000_000), ("kohm", 1000)):
        if value >= scale and value % scale == 0:
            return f"{value // scale} {unit}"
    return f"{value} ohm"


def report(data=None):
    """The lines this script prints."""
    data = data or pinout()
    soft = data["circuit"]["soft_start"]
    low, high = soft["gate_threshold_v_range"]
    lines = [f"Model: {MODEL}; K = {K_A_PER_V2:.2f} A/V^2, V_th {low}-{high} V"]
    for name, network in (("before", OLD_NETWORK), ("now", soft)):
        r, c = network["gate_to_gnd_ohm"], network["gate_to_source_uf"]
        peak_ma, v_th = worst_peak(network, data)
        lines.append(
            f"{name}: {ohms(r)}, {c} uF (RC = {r * c / 1e6:.2f} s): peak {peak_ma} mA"
            f" (V_th {v_th} V), fully on after {fully_on_s(r, c):.2f} s"
        )
    doubled, _ = worst_peak(soft, data, 2 * K_A_PER_V2)
    lines.append(f"now, with twice the transconductance: peak {doubled} mA")
    wait = let_go_s(soft["gate_to_gnd_ohm"], soft["gate_to_source_uf"], low)
    lines.append(f"now, after an unplug: the switch lets go after {wait:.1f} s (V_th {low} V)")
    return lines


if __name__ == "__main__":
    print("\n".join(report()))
    sys.exit(0)
