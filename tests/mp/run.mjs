// Runs the core package's tests (or one script) inside real MicroPython:
// the WebAssembly build, with firmware/ (at /lib), boards/, tests/core and seeds/
// copied into its virtual file system (tests/mp/mp.mjs).
//
//   node tests/mp/run.mjs [NAME_FILTER ...]      run tests/core/test_*.py
//   node tests/mp/run.mjs --script FILE [ARGS]   run FILE (global ARGS = list of ARGS)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, startMicroPython, exitOnPythonError } from "./mp.mjs";

const vm = await startMicroPython();

// The whole firmware tree goes to /lib (core package at /lib/flagcore).
// FLAGFALL_CORE_DIR lets the harness's own test load a deliberately broken core.
vm.loadFirmware();
const coreDir = process.env.FLAGFALL_CORE_DIR || join(root, "firmware", "flagcore");
vm.copyTree(coreDir, "/lib/flagcore", (n) => n.endsWith(".py"));
vm.copyTree(join(root, "boards"), "/boards");
vm.copyTree(join(root, "tests", "core"), "/tests", (n) => n.endsWith(".py"));
vm.copyTree(join(root, "seeds"), "/seeds");
vm.mkdirs("/tmp");

const args = process.argv.slice(2);
let file = join(root, "tests", "mp", "runner.py");
let argv = args;
if (args[0] === "--script") {
  file = args[1];
  argv = args.slice(2);
}
vm.mp.FS.writeFile("/script.py", readFileSync(file));
const code = `import sys\nsys.path.insert(0, '/lib')\nsys.path.insert(0, '/tests')\nimport os\nos.chdir('/')\nexec(open('/script.py').read(), {'__name__': '__main__', 'ARGS': ${JSON.stringify(argv)}})\n`;
try {
  vm.run(code);
} catch (e) {
  exitOnPythonError(e);
}
