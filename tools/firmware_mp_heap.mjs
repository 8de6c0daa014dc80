// Whole-firmware figures under MicroPython (WebAssembly), run by tools/bench_firmware.py:
//   node tools/firmware_mp_heap.mjs
// Peak heap, the project's method: base = gc.mem_alloc() after gc.collect()
// BEFORE importing anything from the firmware; then for each step (building
// the app, then every scripted action with one loop pass):
//   gc.collect(); <step>; peak = max(peak, gc.mem_alloc() - base)
// The WebAssembly port frees garbage only between top-level runPython calls,
// so every step is its own call. No collection happens inside a step, so the
// figure is the retained state plus every byte the step allocated: an upper
// bound on the true peak. It also counts the fake hardware models and the
// bench script itself, which a real device does not carry.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const mpmod = await import("@micropython/micropython-webassembly-pyscript");
const mp = await mpmod.loadMicroPython({
  stdout: (s) => process.stdout.write(s + "\n"),
  stderr: (s) => process.stderr.write(s + "\n"),
  linebuffer: true,
});

function copyTree(src, dst, filter) {
  try { mp.FS.mkdir(dst); } catch (e) {}
  for (const name of readdirSync(src)) {
    const s = join(src, name);
    if (statSync(s).isDirectory()) {
      if (name !== "__pycache__") copyTree(s, dst + "/" + name, filter);
    } else if (filter(name)) {
      mp.FS.writeFile(dst + "/" + name, readFileSync(s));
    }
  }
}
// --mpy DIR: load the compiled firmware (what `make firmware` builds and a device runs)
const mpyAt = process.argv.indexOf("--mpy");
if (mpyAt >= 0) {
  copyTree(process.argv[mpyAt + 1], "/lib", (n) => n.endsWith(".mpy"));
} else {
  copyTree(join(root, "firmware"), "/lib", (n) => n.endsWith(".py"));
}
copyTree(join(root, "boards"), "/boards", (n) => n.endsWith(".json"));
mp.FS.writeFile("/lib/bench_fw.py", readFileSync(join(root, "tools", "mpbench_firmware.py")));

mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport gc\nimport json\nimport bench_fw\nimport device.fakehw");
// base: after the bench harness and the fake hardware, before any module of the app
mp.runPython("gc.collect()\nbase = gc.mem_alloc()\npeak = 0");

for (const m of ["flagcore", "flagcore.ticks", "flagcore.timecontrol", "flagcore.clock", "flagcore.display",
                 "flagcore.wire", "flagcore.scan", "device.buttons", "device.menu", "device.presets",
                 "device.app", "device.sensors", "device.sensors.matrix", "device.sensors.hc165",
                 "device.sensors.mcp23017", "device.tm1637", "device.ssd1306", "device.buzzer", "device.leds"]) {
  mp.runPython(`gc.collect()\nimport ${m}\npeak = max(peak, gc.mem_alloc() - base)`);
}
mp.runPython("gc.collect()\ncode = gc.mem_alloc() - base\nimport_peak = peak\nallpeak = peak");
const profiles = ["pico-chess", "esp32-chess", "rpi-chess", "pico-minzu14"];
for (const name of profiles) {
  mp.runPython(`gc.collect()\nn = bench_fw.setup(${JSON.stringify(name)})\npeak = max(import_peak, gc.mem_alloc() - base)`);
  mp.runPython("gc.collect()\nbench_fw.build()\npeak = max(peak, gc.mem_alloc() - base)\nsetup_peak = peak");
  mp.runPython("bench_fw.check()\ngc.collect()\nretained = gc.mem_alloc() - base\nworst = 0\nworst_i = -1");
  const n = Number(mp.globals.get("n"));
  for (let i = 0; i < n; i++) {
    mp.runPython(`gc.collect()\nm0 = gc.mem_alloc()\nbench_fw.step(${i})\nm1 = gc.mem_alloc()\npeak = max(peak, m1 - base)\nif m1 - m0 > worst:\n worst = m1 - m0\n worst_i = ${i}`);
    mp.runPython("bench_fw.check()");
  }
  mp.runPython(`allpeak = max(allpeak, peak)\nprint('app_peak_heap_${name}: %d bytes (%.1f KB; app running: %.1f KB retained after boot, worst step +%d bytes, %d steps); %s' % (peak, peak / 1024, retained / 1024, worst, n, bench_fw.summary(${JSON.stringify(name)})))\nbench_fw.rig = None`);
}
mp.runPython("print('app_code_heap: %.1f KB (every app module imported)' % (code / 1024))\nprint('app_peak_heap_max: %.1f KB (limit 80 KB)' % (allpeak / 1024))\nprint('app_peak_heap_ok: %s' % ('yes' if allpeak < 80 * 1024 else 'NO'))");
if (!process.argv.includes("--no-timing")) mp.runPython("bench_fw.timing()");
