// The README's examples run as printed, with plain `node`, from any working directory.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { BIN, CLIENT_DIR } from "../test-support/contract.mjs";

const run = promisify(execFile);
const readme = readFileSync(join(CLIENT_DIR, "README.md"), "utf8");

/** The fenced block that follows `marker` in the README. */
function blockAfter(marker) {
  const at = readme.indexOf(marker);
  assert.ok(at >= 0, `README has ${JSON.stringify(marker)}`);
  const m = readme.slice(at).match(/```[a-z]*\n([^]*?)```/);
  assert.ok(m, `a code block after ${JSON.stringify(marker)}`);
  return m[1];
}

async function runExample(file) {
  const { stdout, stderr } = await run(process.execPath, [join(CLIENT_DIR, file)], {
    cwd: tmpdir(),
    env: { ...process.env, NATIVE_ADS_BIN: BIN },
    timeout: 20000,
  });
  return { stdout, stderr };
}

test("README: the ten-line example is example.mjs, and prints what the README says", async () => {
  const source = readFileSync(join(CLIENT_DIR, "example.mjs"), "utf8");
  assert.equal(blockAfter("## Example"), source, "README shows example.mjs verbatim");
  assert.ok(source.trimEnd().split("\n").length <= 10, "ten lines");
  const { stdout } = await runExample("example.mjs");
  assert.equal(stdout, blockAfter("It prints:"));
});

test("README: examples/adapter.mjs prints the transcript the README shows", async () => {
  const shown = blockAfter("[`examples/adapter.mjs`](examples/adapter.mjs) runs both roles");
  const expected = shown.split("\n").slice(1).join("\n"); // drop the "$ node ..." line
  const { stdout } = await runExample("examples/adapter.mjs");
  assert.equal(stdout, expected);
});
