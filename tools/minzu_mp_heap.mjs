// Peak-heap measurement of the minzu tiaoqi core under MicroPython (WebAssembly),
// run by tools/bench_minzu.py:
//   node tools/minzu_mp_heap.mjs SIZE DECISION...
// replays one whole game, every decision checked against the legal list
// (Game.play with the decision's text), then checks the result.
// The WebAssembly port only collects garbage between top-level runPython
// calls, so each step (the import, the new game, then each decision) is its
// own call:  gc.collect(); <step>; peak = max(peak, gc.mem_alloc() - base)
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
const [size, result, ...decisions] = process.argv.slice(2);
mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport gc\ngc.collect()\nbase = gc.mem_alloc()\npeak = 0");
mp.runPython("gc.collect()\nfrom flagcore import minzu\nimport_peak = gc.mem_alloc() - base");
mp.runPython("gc.collect()\nimported = gc.mem_alloc() - base\ng = minzu.Game(" + JSON.stringify(size) +
  ")\npeak = max(imported, gc.mem_alloc() - base)\nplies = 0\nillegal = 0");
for (const d of decisions) {
  const call = d === "stop" ? "g.play(minzu.STOP)" : "g.play(" + JSON.stringify(d) + ")";
  mp.runPython("gc.collect()\n" + call + "\nplies += 1\npeak = max(peak, gc.mem_alloc() - base)");
}
mp.runPython("gc.collect()\nretained = gc.mem_alloc() - base\n" +
  "print('mp_import_peak_heap: %d bytes' % import_peak)\n" +
  "print('mp_import_retained_heap: %d bytes' % imported)\n" +
  "print('mp_game_decisions: %d' % plies)\n" +
  "print('mp_game_result: %s' % g.result)\n" +
  "print('mp_game_result_ok: %d' % (g.result == " + JSON.stringify(result) + "))\n" +
  "print('mp_game_peak_heap: %d bytes' % peak)\n" +
  "print('mp_game_retained_heap: %d bytes' % retained)");
