// Runs the companion's ESP32 firmware under real MicroPython (WebAssembly build) in Node.
//
//   node tests/firmware/mp_runner.mjs live [--leds]   box.run() on asyncio; stdin lines go to
//        the box's serial port, except `! press N` / `! release N` (seat buttons) and `! quit`;
//        the box's serial output is this process's stdout; with --leds every frame sent to the
//        strip is printed on stderr as `LEDS <hex GRB>`; `STOPPED` on stderr when the box stops.
//   node tests/firmware/mp_runner.mjs stepped          golden-transcript steps on stdin
//        (see fakes/stepper.py), the box's lines on stdout, each step closed by a line `=`;
//        the clock is the transcript's, so the output is deterministic.
//   node tests/firmware/mp_runner.mjs run FILE.py      run a script next to the firmware.
//
// The firmware files go to /firmware in MicroPython's in-memory FS, the fakes (machine,
// neopixel, ports, stepper) to /lib. Python's own print() goes to stderr except in `run`.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import url from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const HERE = path.dirname(url.fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const [mode = "live", ...rest] = process.argv.slice(2);

function copyPy(mp, from, to) {
  mp.FS.mkdir(to);
  for (const name of fs.readdirSync(from)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${to}/${name}`, fs.readFileSync(path.join(from, name)));
  }
}

function fail(error) {
  process.stderr.write(`${error.type ?? error.name}: ${error.message}\n`);
  process.exit(2);
}

const toStdout = mode === "run";
const mp = await loadMicroPython({
  heapsize: 512 * 1024,
  stdout: (line) => (toStdout ? process.stdout : process.stderr).write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
copyPy(mp, path.join(ROOT, "firmware"), "/firmware");
copyPy(mp, path.join(HERE, "fakes"), "/lib");
mp.registerJsModule("hostio", {
  write: (text) => process.stdout.write(text, "latin1"),
  leds: (hex) => process.stderr.write(`LEDS ${hex}\n`),
  stopped: () => {
    process.stderr.write("STOPPED\n");
    process.stdout.write("", () => process.exit(0));
  },
});
try {
  mp.runPython("import sys\nsys.path.insert(0, '/firmware')\n");
} catch (error) {
  fail(error);
}

function eachStdinLine(handle) {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    try {
      handle(line);
    } catch (error) {
      fail(error);
    }
  });
  lines.on("close", () => process.stdout.write("", () => process.exit(0)));
}

if (mode === "run") {
  try {
    mp.runPython(fs.readFileSync(rest[0], "utf8"));
  } catch (error) {
    fail(error);
  }
} else if (mode === "stepped") {
  mp.runPython(`
import hostio
from stepper import Stepper
_stepper = Stepper()
def step(text):
    for line in _stepper.step(text):
        hostio.write(line + "\\n")
    hostio.write("=\\n")
`);
  const step = mp.globals.get("step");
  eachStdinLine((line) => step(line));
} else if (mode === "live") {
  const leds = rest.includes("--leds");
  mp.runPython(`
import asyncio, binascii, hostio, board, machine, neopixel, pins
from jsport import JsPort
port = JsPort(hostio.write)
box = board.make_box(port=port)
if ${leds ? "True" : "False"}:
    neopixel.NeoPixel.on_write = lambda buf: hostio.leds(binascii.hexlify(buf).decode())
def button(verb, seat):
    gpio = pins.BUTTONS[seat - 1]
    machine.press(gpio) if verb == "press" else machine.release(gpio)
async def main():
    await box.run()
    hostio.stopped()
asyncio.create_task(main())
`);
  const feed = mp.globals.get("port").feed;
  const button = mp.globals.get("button");
  eachStdinLine((line) => {
    const words = line.split(" ");
    if (line === "! quit") process.stdout.write("", () => process.exit(0));
    else if (words[0] === "!" && (words[1] === "press" || words[1] === "release")) {
      for (const seat of words.slice(2)) button(words[1], Number(seat));
    } else feed(Buffer.from(line + "\n", "utf8").toString("latin1"));
  });
} else {
  fail(new Error(`unknown mode ${mode}`));
}
