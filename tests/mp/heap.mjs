// Peak-heap measurement inside MicroPython (WebAssembly): the one driver the benches use
// (through tools/mpheap.py).
//   node tests/mp/heap.mjs SPEC.json
// SPEC: {"setup": "python code", "steps": [STEP, ...], "report": "python code",
//        "files": {"/lib/name.py": "host/path.py"}, "mpy": "DIR"}
// The firmware is at /lib (sources, or with "mpy" the .mpy files of
// `tools/mpy_compile.py --out DIR`), boards/ at /boards. "setup" runs first and
// is not counted; then base = gc.mem_alloc() after gc.collect(); each STEP is its
// own top-level call:
//   gc.collect(); <step>; peak = max(peak, gc.mem_alloc() - base)
// A STEP may also be {"code": "...", "measure": false}: run, not counted (e.g.
// decoding what the device sent, host-side work). The WebAssembly build frees
// garbage only between top-level calls, so peak is the retained state plus every
// byte the step allocated: an upper bound on the true peak. Steps and report see
// `gc`, `base` and `peak`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, startMicroPython } from "./mp.mjs";

const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const vm = await startMicroPython();
vm.loadFirmware(spec.mpy || null);
vm.loadBoards();
for (const [dst, src] of Object.entries(spec.files || {})) vm.writeFile(dst, join(root, src));

try {
  vm.run("import sys\nsys.path.insert(0, '/lib')\nimport gc\n" + (spec.setup || ""));
  vm.run("gc.collect()\nbase = gc.mem_alloc()\npeak = 0");
  for (const step of spec.steps) {
    if (typeof step === "string") vm.run("gc.collect()\n" + step + "\npeak = max(peak, gc.mem_alloc() - base)");
    else if (step.measure === false) vm.run(step.code);
    else vm.run("gc.collect()\n" + step.code + "\npeak = max(peak, gc.mem_alloc() - base)");
  }
  vm.run("gc.collect()\nretained = gc.mem_alloc() - base\n" + (spec.report || ""));
} catch (e) {
  console.error(String(e));
  process.exit(1);
}
