// Peak-heap measurement of the draughts core under MicroPython (WebAssembly),
// run by tools/bench_draughts.py:
//   node tools/draughts_mp_heap.mjs VARIANT MOVE...
// The WebAssembly port only collects garbage between top-level runPython
// calls, so each step (the import, then each ply) is its own call:
//   gc.collect(); <step>; peak = max(peak, gc.mem_alloc() - base)
// with base taken before the import. No collection happens inside a step, so
// this counts the retained state plus every byte the step allocated: an upper
// bound on the true peak.
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
const [variant, ...moves] = process.argv.slice(2);
mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport gc\ngc.collect()\nbase = gc.mem_alloc()\npeak = 0");
mp.runPython("gc.collect()\nfrom flagcore.draughts import Game\npeak = max(peak, gc.mem_alloc() - base)\nimport_peak = peak");
mp.runPython("gc.collect()\nimported = gc.mem_alloc() - base\ng = Game(" + JSON.stringify(variant) + ")\npeak = max(peak, gc.mem_alloc() - base)\nplies = 0\nreplay_peak = 0");
for (const m of moves) {
  mp.runPython("gc.collect()\ng.push(g.parse(" + JSON.stringify(m) + "))\ng.outcome()\nplies += 1\nreplay_peak = max(replay_peak, gc.mem_alloc() - base)");
}
mp.runPython("gc.collect()\nretained = gc.mem_alloc() - base\n" +
  "print('mp_import_peak_heap: %d bytes' % import_peak)\n" +
  "print('mp_import_retained_heap: %d bytes' % imported)\n" +
  "print('mp_replay_plies: %d' % plies)\n" +
  "print('mp_replay_peak_heap: %d bytes' % max(peak, replay_peak))\n" +
  "print('mp_replay_retained_heap: %d bytes' % retained)");
