// Peak-heap measurement of the chess core under MicroPython (WebAssembly),
// run by tools/bench_chess.py:
//   node tools/chess_mp_heap.mjs SAN...
// Method (the project's): base = gc.mem_alloc() after gc.collect() BEFORE the
// import; then for each step (the import, creating the board, each ply):
//   gc.collect(); <step>; peak = max(peak, gc.mem_alloc() - base)
// Each ply is: parse the SAN against the legal moves (the legality check),
// push it, and ask for the game status. The WebAssembly port frees garbage
// only between top-level runPython calls, so every step is its own call. No
// collection happens inside a step, so the figure is the retained state plus
// every byte the step allocated: an upper bound on the true peak.
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const mpmod = await import("@micropython/micropython-webassembly-pyscript");
const mp = await mpmod.loadMicroPython({
  stdout: (s) => process.stdout.write(s + "\n"),
  stderr: (s) => process.stderr.write(s + "\n"),
  linebuffer: true,
});
mp.FS.mkdir("/lib");
mp.FS.mkdir("/lib/flagcore");
for (const name of readdirSync(join(root, "firmware", "flagcore"))) {
  if (name.endsWith(".py")) mp.FS.writeFile("/lib/flagcore/" + name, readFileSync(join(root, "firmware", "flagcore", name)));
}
const sans = process.argv.slice(2);
mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport gc\ngc.collect()\nbase = gc.mem_alloc()\npeak = 0");
mp.runPython("gc.collect()\nfrom flagcore import chess\npeak = max(peak, gc.mem_alloc() - base)\nimport_peak = peak");
mp.runPython("gc.collect()\nimported = gc.mem_alloc() - base\nb = chess.Board()\npeak = max(peak, gc.mem_alloc() - base)\nplies = 0");
for (const s of sans) {
  mp.runPython("gc.collect()\nb.push(b.parse_san(" + JSON.stringify(s) + "))\nb.status()\nplies += 1\npeak = max(peak, gc.mem_alloc() - base)");
}
mp.runPython("gc.collect()\nretained = gc.mem_alloc() - base\n" +
  "print('mp_import_peak_heap: %d bytes' % import_peak)\n" +
  "print('mp_import_retained_heap: %d bytes' % imported)\n" +
  "print('mp_replay_plies: %d' % plies)\n" +
  "print('mp_replay_peak_heap: %d bytes' % peak)\n" +
  "print('mp_replay_retained_heap: %d bytes' % retained)\n" +
  "print('mp_replay_final_fen: %s' % b.fen())");
