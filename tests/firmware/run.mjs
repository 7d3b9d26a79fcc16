// Runs a MicroPython script under MicroPython's own WebAssembly port (npm: @micropython/micropython-webassembly-pyscript).
// Usage: node run.mjs SCRIPT FILE... : each FILE is copied flat into /board (as onto a Pico's filesystem),
// /board goes first on sys.path, then SCRIPT runs. A Python exception exits 1 with its traceback on stderr.
import fs from "node:fs";
import path from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [script, ...files] = process.argv.slice(2);
const mp = await loadMicroPython({
    heapsize: 16 * 1024 * 1024,
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/board");
for (const file of files) {
    mp.FS.writeFile("/board/" + path.basename(file), fs.readFileSync(file));
}
try {
    mp.runPython("import sys\nsys.path.insert(0, '/board')\n" + fs.readFileSync(script, "utf8"));
} catch (error) {
    if (error.name !== "PythonError") throw error;
    process.stderr.write(error.message + "\n");
    process.exit(1);
}
