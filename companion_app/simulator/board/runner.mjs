// The simulated box's board: the firmware under real MicroPython (WebAssembly) in Node.
//
//   node runner.mjs MICROPYTHON_MJS FIRMWARE_DIR CAUSE [HELD_SEATS]
//
// companion_app/simulator/micropython.py runs it behind a pseudo-terminal, with stdin a non-blocking
// pipe. The board runs synchronously, as on the ESP32 (asyncio.run blocks); the world
// (UART, buttons, timers, watchdog) advances while the firmware sleeps: see simhost.py and simboot.py.
// One line per message:
//   in (stdin):   R <hex>  bytes on the serial line   P <seat> / U <seat>  press / release
//                 Q        power off
//   out (stdout): READY    MicroPython is up          T <hex>  bytes the board sends
//                 L <hex>  a frame sent to the strip   S <why>  main.py ended (repl, crash)
//                 B <why>  the board resets itself     D <n>    bytes lost so far (ring full)
//                 O <text> a line the firmware printed (it goes out on the serial line too)
// firmware/*.py go to /firmware, this folder's Python (machine, neopixel, sim*) to /lib.
import fs from "node:fs";
import path from "node:path";
import url from "node:url";

const HERE = path.dirname(url.fileURLToPath(import.meta.url));
const [mpModule, firmwareDir, cause = "power-on", held = ""] = process.argv.slice(2);
const nap = new Int32Array(new SharedArrayBuffer(4));
const inbox = Buffer.alloc(65536);

function send(line) {
  const data = Buffer.from(line + "\n", "latin1");
  for (let done = 0; done < data.length; ) {
    try {
      done += fs.writeSync(1, data, done);
    } catch (error) {
      if (error.code !== "EAGAIN") process.exit(0); // the host went away
    }
  }
}

function poll() {
  try {
    const n = fs.readSync(0, inbox, 0, inbox.length, null);
    if (n === 0) process.exit(0); // the host closed our stdin: power off
    return inbox.toString("latin1", 0, n);
  } catch (error) {
    if (error.code === "EAGAIN") return "";
    throw error;
  }
}

function copyPy(mp, from, to) {
  mp.FS.mkdir(to);
  for (const name of fs.readdirSync(from)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${to}/${name}`, fs.readFileSync(path.join(from, name)));
  }
}

function printed(text) {
  for (const line of String(text).split("\n")) {
    send(`O ${line}`);
    send(`T ${Buffer.from(line + "\r\n", "utf8").toString("hex")}`); // the REPL's UART
  }
}

const { loadMicroPython } = await import(url.pathToFileURL(mpModule).href);
const mp = await loadMicroPython({ heapsize: 512 * 1024, stdout: printed, stderr: printed });
copyPy(mp, firmwareDir, "/firmware");
copyPy(mp, HERE, "/lib");
mp.registerJsModule("hostio", {
  send,
  poll,
  sleep: (ms) => Atomics.wait(nap, 0, 0, ms),
  exit: () => process.exit(0),
});
send("READY");
const seats = held ? held.split(",").map(Number) : [];
try {
  mp.runPython(
    `import sys\nsys.path.insert(0, "/firmware")\nimport simboot\n` +
      `simboot.boot(${JSON.stringify(cause)}, ${JSON.stringify(seats)})\n`,
  );
} catch (error) {
  printed(`${error.type ?? error.name}: ${error.message}`);
  send("S crash");
}
