import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(__dirname, "..", "..");
const MANIFEST = readFileSync(join(ROOT, "package.json"), "utf8");

/**
 * Every key path that appears twice in one JSON object. JSON.parse (and so VS Code) silently
 * keeps the last one, which is how a merge of two branches that each added
 * `contributes.views` once hid the KeSi Plan view without an error.
 */
function duplicateKeys(text: string): string[] {
  const found: string[] = [];
  const objects: { path: string; keys: Set<string> }[] = [];
  let pendingKey = "";
  let path = "";
  const token = /"(?:[^"\\]|\\.)*"\s*:?|[{}[\]]/g;
  for (const match of text.matchAll(token)) {
    const part = match[0];
    if (part === "{") {
      objects.push({ path: pendingKey ? `${path}.${pendingKey}` : path, keys: new Set() });
      path = objects[objects.length - 1]?.path ?? "";
      pendingKey = "";
    } else if (part === "}") {
      objects.pop();
      path = objects[objects.length - 1]?.path ?? "";
    } else if (part === "[" || part === "]") {
      pendingKey = "";
    } else if (part.endsWith(":")) {
      const key = JSON.parse(part.slice(0, -1).trim()) as string;
      const keys = objects[objects.length - 1]?.keys;
      if (keys?.has(key)) {
        found.push(`${path}.${key}`);
      }
      keys?.add(key);
      pendingKey = key;
    }
  }
  return found;
}

describe("package.json", () => {
  it("names no key twice in one object", () => {
    assert.deepEqual(duplicateKeys('{"a": {"b": 1, "c": [{"b": 2}]}, "d": "x:"}'), []);
    assert.deepEqual(duplicateKeys('{"c": {"views": {}, "x": 1, "views": {}}}'), [".c.views"]);
    assert.deepEqual(duplicateKeys(MANIFEST), []);
  });

  it("contributes every tree view the extension creates", () => {
    const manifest = JSON.parse(MANIFEST) as {
      contributes: { views: Record<string, { id: string }[]> };
    };
    const contributed = Object.values(manifest.contributes.views)
      .flat()
      .map((view) => view.id);
    const src = join(ROOT, "src");
    const created = readdirSync(src)
      .filter((name) => name.endsWith(".ts"))
      .flatMap((name) => {
        const source = readFileSync(join(src, name), "utf8");
        const constants = new Map(
          [...source.matchAll(/const (\w+) = "([^"]+)"/g)].map((m) => [m[1], m[2]]),
        );
        return [...source.matchAll(/createTreeView\(\s*(?:"([^"]+)"|(\w+))/g)].map(
          (m) => m[1] ?? constants.get(m[2] ?? "") ?? `unresolved ${m[2]} in ${name}`,
        );
      });
    assert.deepEqual(created.sort(), ["kesi.plan", "kesiChanges"]);
    for (const id of created) {
      assert.ok(contributed.includes(id), `the view ${id} is created but not contributed`);
    }
  });
});
