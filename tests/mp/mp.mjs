// The one place that starts MicroPython (the WebAssembly build) under Node and
// fills its virtual file system; used by run.mjs (tests, scripts) and heap.mjs
// (peak-heap measurements for the benches).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function startMicroPython() {
  let mpmod;
  try {
    mpmod = await import("@micropython/micropython-webassembly-pyscript");
  } catch (e) {
    console.error("MicroPython WebAssembly is not installed: run `make setup` (npm ci).");
    process.exit(2);
  }
  const mp = await mpmod.loadMicroPython({
    stdout: (s) => process.stdout.write(s + "\n"),
    stderr: (s) => process.stderr.write(s + "\n"),
    linebuffer: true,
  });
  return new Vfs(mp);
}

class Vfs {
  constructor(mp) {
    this.mp = mp;
  }

  mkdirs(path) {
    let cur = "";
    for (const part of path.split("/").filter(Boolean)) {
      cur += "/" + part;
      try { this.mp.FS.mkdir(cur); } catch (e) { /* exists */ }
    }
  }

  // copy a host folder into the virtual file system (files passing `filter`, no __pycache__)
  copyTree(src, dst, filter = () => true) {
    this.mkdirs(dst);
    for (const name of readdirSync(src)) {
      const s = join(src, name);
      if (statSync(s).isDirectory()) {
        if (name !== "__pycache__") this.copyTree(s, dst + "/" + name, filter);
      } else if (filter(name)) {
        this.mp.FS.writeFile(dst + "/" + name, readFileSync(s));
      }
    }
  }

  writeFile(dst, hostPath) {
    this.mkdirs(dst.slice(0, dst.lastIndexOf("/")));
    this.mp.FS.writeFile(dst, readFileSync(hostPath));
  }

  // the firmware at /lib: sources, or the .mpy files of a `tools/mpy_compile.py --out DIR` build
  loadFirmware(mpyDir = null) {
    if (mpyDir) this.copyTree(mpyDir, "/lib", (n) => n.endsWith(".mpy"));
    else this.copyTree(join(root, "firmware"), "/lib", (n) => n.endsWith(".py"));
  }

  loadBoards() {
    this.copyTree(join(root, "boards"), "/boards", (n) => n.endsWith(".json"));
  }

  run(code) {
    this.mp.runPython(code);
  }
}

// exit with the status of a SystemExit raised by Python, else report and exit 1
export function exitOnPythonError(e) {
  const msg = String(e);
  if (msg.includes("SystemExit")) {
    const m = msg.match(/SystemExit:?\s*(\d+)?/);
    process.exit(m && m[1] ? Number(m[1]) : 0);
  }
  console.error(msg);
  process.exit(1);
}
