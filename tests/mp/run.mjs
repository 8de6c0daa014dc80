// Runs the core package's tests (or one script) inside real MicroPython:
// the WebAssembly build, with firmware/ (at /lib), boards/, tests/core and seeds/
// copied into its virtual file system.
//
//   node tests/mp/run.mjs [NAME_FILTER ...]      run tests/core/test_*.py
//   node tests/mp/run.mjs --script FILE [ARGS]   run FILE (global ARGS = list of ARGS)
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
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

function mkdirs(path) {
  let cur = "";
  for (const part of path.split("/").filter(Boolean)) {
    cur += "/" + part;
    try { mp.FS.mkdir(cur); } catch (e) { /* exists */ }
  }
}

function copyTree(src, dst, filter) {
  mkdirs(dst);
  for (const name of readdirSync(src)) {
    const s = join(src, name);
    if (statSync(s).isDirectory()) {
      if (name !== "__pycache__") copyTree(s, dst + "/" + name, filter);
    } else if (filter(name)) {
      mp.FS.writeFile(dst + "/" + name, readFileSync(s));
    }
  }
}

// The whole firmware tree goes to /lib (core package at /lib/flagcore).
// FLAGFALL_CORE_DIR lets the harness's own test load a deliberately broken core.
copyTree(join(root, "firmware"), "/lib", (n) => n.endsWith(".py"));
const coreDir = process.env.FLAGFALL_CORE_DIR || join(root, "firmware", "flagcore");
copyTree(coreDir, "/lib/flagcore", (n) => n.endsWith(".py"));
try { copyTree(join(root, "boards"), "/boards", () => true); } catch (e) { /* no boards yet */ }
copyTree(join(root, "tests", "core"), "/tests", (n) => n.endsWith(".py"));
copyTree(join(root, "seeds"), "/seeds", () => true);
try { mp.FS.mkdir("/tmp"); } catch (e) {}

const args = process.argv.slice(2);
let code;
if (args[0] === "--script") {
  const file = args[1];
  mp.FS.writeFile("/script.py", readFileSync(file));
  code = `import sys\nsys.path.insert(0, '/lib')\nsys.path.insert(0, '/tests')\nimport os\nos.chdir('/')\nexec(open('/script.py').read(), {'__name__': '__main__', 'ARGS': ${JSON.stringify(args.slice(2))}})\n`;
} else {
  mp.FS.writeFile("/runner.py", readFileSync(join(root, "tests", "mp", "runner.py")));
  code = `import sys\nsys.path.insert(0, '/lib')\nsys.path.insert(0, '/tests')\nimport os\nos.chdir('/')\nexec(open('/runner.py').read(), {'__name__': '__main__', 'ARGS': ${JSON.stringify(args)}})\n`;
}
try {
  mp.runPython(code);
} catch (e) {
  const msg = String(e);
  if (msg.includes("SystemExit")) {
    const m = msg.match(/SystemExit:?\s*(\d+)?/);
    process.exit(m && m[1] ? Number(m[1]) : 0);
  }
  console.error(msg);
  process.exit(1);
}
