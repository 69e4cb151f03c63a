import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";

const CORE = join(__dirname, "..", "..", "src", "core");

describe("src/core", () => {
  it("never imports VS Code or the language client (its tests run without them)", () => {
    const files = readdirSync(CORE).filter((name) => name.endsWith(".ts"));
    assert.ok(files.length >= 8, `only ${files.length} files in ${CORE}`);
    for (const name of files) {
      const source = readFileSync(join(CORE, name), "utf8");
      const imports = [...source.matchAll(/from\s+"([^"]+)"/g)].map((match) => match[1] ?? "");
      for (const module of imports) {
        assert.ok(
          module.startsWith("./") || module.startsWith("node:"),
          `${name} imports ${module}`,
        );
      }
    }
  });
});
