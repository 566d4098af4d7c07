// The simulated box's board: MicroPython (WebAssembly) in Node, booting from a flash folder.
//
//   node runner.mjs MICROPYTHON_MJS CONFIG_JSON
//
// CONFIG_JSON: {"flash": folder, "cause": "power-on"|"reset"|"wdt", "held": [seats],
// "buttons": [GPIO of seat 1, ...]}. The flash folder is the board's filesystem: copied into
// MicroPython's in-memory FS at power-up (mounted at "/", as littlefs is on the ESP32) and
// written back whenever the board asks (after each REPL command, at a soft reset, before
// power-off), so `mpremote fs cp` lands on the host's disk and survives a reset.
// companion_app/simulator/micropython.py runs it behind a pseudo-terminal, with stdin a
// non-blocking pipe. The board runs synchronously, as on the ESP32; the world (UART, buttons,
// timers, watchdog) advances while the firmware waits: see simhost.py and simboot.py.
// One line per message:
//   in (stdin):   R <hex>  bytes on the serial line   P <seat> / U <seat>  press / release
//                 Q        power off
//   out (stdout): READY    MicroPython is up          T <hex>  bytes the board sends
//                 L <hex> <epoch ms>  a frame shown   S <what> main.py: run, repl, crash
//                 B <why>  the board resets itself     D <n>    bytes lost so far (ring full)
//                 O <text> a line MicroPython printed (it goes out on the serial line too)
//                 Z <freq> <duty>  the piezo's PWM changed
// This folder's Python (machine, neopixel, sim*) goes to /sim, the board's built-in modules.
import fs from "node:fs";
import path from "node:path";
import url from "node:url";

const HERE = path.dirname(url.fileURLToPath(import.meta.url));
const [mpModule, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const nap = new Int32Array(new SharedArrayBuffer(4));
const inbox = Buffer.alloc(65536);
const FLASH = "/flash"; // where the flash folder lives in MicroPython's in-memory FS

function write(line) {
  const data = Buffer.from(line + "\n", "latin1");
  for (let done = 0; done < data.length; ) {
    try {
      done += fs.writeSync(1, data, done);
    } catch (error) {
      if (error.code !== "EAGAIN") process.exit(0); // the host went away
    }
  }
}

// MicroPython's stdout, byte by byte: on the serial line as the REPL's UART sends it (print's
// "\n" becomes "\r\n", as mp_hal_stdout_tx_strn_cooked does on the board) and as text lines.
let pending = [];
let text = [];

function printed(bytes) {
  for (const byte of bytes) {
    if (byte === 10) {
      pending.push(13);
      write(`O ${Buffer.from(text).toString("utf8")}`);
      text = [];
    } else {
      text.push(byte);
    }
    pending.push(byte);
  }
}

function flushPrinted() {
  if (pending.length) {
    write(`T ${Buffer.from(pending).toString("hex")}`);
    pending = [];
  }
}

function send(line) {
  flushPrinted(); // what the firmware printed went out before what it sends now
  // A frame for the strip: stamped with the moment it is shown (epoch ms, this host's clock).
  write(line.startsWith("L ") ? `${line} ${(performance.timeOrigin + performance.now()).toFixed(2)}` : line);
}

function poll() {
  flushPrinted();
  try {
    const n = fs.readSync(0, inbox, 0, inbox.length, null);
    if (n === 0) powerOff(); // the host closed our stdin
    return inbox.toString("latin1", 0, n);
  } catch (error) {
    if (error.code === "EAGAIN") return "";
    throw error;
  }
}

// ----- the flash: the host's folder <-> MicroPython's in-memory FS -------------------------

const synced = new Map(); // path below the flash -> contents last written to the host

function loadFlash(mp, from, to) {
  mp.FS.mkdir(to);
  for (const name of fs.readdirSync(from)) {
    const source = path.join(from, name);
    const target = `${to}/${name}`;
    if (fs.statSync(source).isDirectory()) {
      loadFlash(mp, source, target);
    } else {
      const data = fs.readFileSync(source);
      mp.FS.writeFile(target, data);
      synced.set(target.slice(FLASH.length + 1), Buffer.from(data));
    }
  }
}

function flashFiles(mp, folder, found) {
  for (const name of mp.FS.readdir(folder)) {
    if (name === "." || name === "..") continue;
    const where = `${folder}/${name}`;
    if (mp.FS.isDir(mp.FS.stat(where).mode)) {
      found.set(where.slice(FLASH.length + 1), null);
      flashFiles(mp, where, found);
    } else {
      found.set(where.slice(FLASH.length + 1), Buffer.from(mp.FS.readFile(where)));
    }
  }
  return found;
}

// Write what changed on the board's flash to the host's folder, as a real flash would hold it.
function syncFlash(mp) {
  const now = flashFiles(mp, FLASH, new Map());
  for (const [name, data] of now) {
    const target = path.join(config.flash, name);
    if (data === null) {
      fs.mkdirSync(target, { recursive: true });
    } else if (!synced.has(name) || !synced.get(name).equals(data)) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, data);
    }
  }
  for (const name of [...synced.keys()].sort().reverse()) {
    if (!now.has(name)) fs.rmSync(path.join(config.flash, name), { recursive: true, force: true });
  }
  synced.clear();
  for (const [name, data] of now) synced.set(name, data);
}

function copyPy(mp, from, to) {
  mp.FS.mkdir(to);
  for (const name of fs.readdirSync(from)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${to}/${name}`, fs.readFileSync(path.join(from, name)));
  }
}

let mp = null;

function powerOff() {
  flushPrinted();
  if (mp !== null) syncFlash(mp);
  process.exit(0);
}

const { loadMicroPython } = await import(url.pathToFileURL(mpModule).href);
mp = await loadMicroPython({ heapsize: 512 * 1024, stdout: printed, stderr: printed, linebuffer: false });
loadFlash(mp, config.flash, FLASH);
copyPy(mp, HERE, "/sim");
mp.registerJsModule("hostio", {
  send,
  poll,
  sleep: (ms) => Atomics.wait(nap, 0, 0, ms),
  sync: () => syncFlash(mp),
  exit: powerOff,
});
send("READY");
try {
  mp.runPython(
    `import sys\nsys.path.append("/sim")\nimport simboot\n` +
      `simboot.boot(${JSON.stringify(config.cause)}, ${JSON.stringify(config.held)}, ` +
      `${JSON.stringify(config.buttons)})\n`,
  );
} catch (error) {
  printed(Buffer.from(`${error.type ?? error.name}: ${error.message}\n`));
  send("S crash");
}
powerOff();
