// Peak-heap measurement inside MicroPython (WebAssembly), shared by the benches.
//   node tests/mp/heap.mjs SPEC.json
// SPEC: {"steps": ["python code", ...], "report": "python code"}
// The firmware tree is at /lib. base = gc.mem_alloc() after gc.collect()
// before the first step; each step is its own top-level call:
//   gc.collect(); <step>; peak = max(peak, gc.mem_alloc() - base)
// The WebAssembly build frees garbage only between top-level calls, so this is
// the retained state plus every byte the step allocated: an upper bound on the
// true peak. Steps and report see `gc`, `base` and `peak`.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const mpmod = await import("@micropython/micropython-webassembly-pyscript");
const mp = await mpmod.loadMicroPython({
  stdout: (s) => process.stdout.write(s + "\n"),
  stderr: (s) => process.stderr.write(s + "\n"),
  linebuffer: true,
});

function copyTree(src, dst) {
  try { mp.FS.mkdir(dst); } catch (e) { /* exists */ }
  for (const name of readdirSync(src)) {
    const s = join(src, name);
    if (statSync(s).isDirectory()) {
      if (name !== "__pycache__") copyTree(s, dst + "/" + name);
    } else if (name.endsWith(".py")) {
      mp.FS.writeFile(dst + "/" + name, readFileSync(s));
    }
  }
}
copyTree(join(root, "firmware"), "/lib");

try {
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport gc\ngc.collect()\nbase = gc.mem_alloc()\npeak = 0");
  for (const step of spec.steps) {
    mp.runPython("gc.collect()\n" + step + "\npeak = max(peak, gc.mem_alloc() - base)");
  }
  mp.runPython("gc.collect()\nretained = gc.mem_alloc() - base\n" + (spec.report || ""));
} catch (e) {
  console.error(String(e));
  process.exit(1);
}
