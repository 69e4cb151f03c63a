import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expandSetting, resolveServerPath, type Host } from "../core/serverPath";

function host(
  executables: string[],
  env: Record<string, string> = {},
  platform: NodeJS.Platform = "linux",
): Host {
  const set = new Set(executables);
  return {
    platform,
    env,
    home: platform === "win32" ? "C:\\Users\\me" : "/home/me",
    isExecutable: (f) => set.has(f),
  };
}

describe("resolveServerPath", () => {
  it("uses kesi.serverPath when it points at an executable", () => {
    const found = resolveServerPath(
      "/opt/kesi/bin/kesi-lsp",
      ["/w"],
      host(["/opt/kesi/bin/kesi-lsp"]),
    );
    assert.deepEqual(found, { ok: true, path: "/opt/kesi/bin/kesi-lsp", source: "setting" });
  });

  it("reports a kesi.serverPath that points nowhere instead of falling back", () => {
    const found = resolveServerPath(
      "/nope/kesi-lsp",
      ["/w"],
      host(["/w/.venv/bin/kesi-lsp"], { PATH: "/usr/bin" }),
    );
    assert.deepEqual(found, { ok: false, reason: "badSetting", path: "/nope/kesi-lsp" });
  });

  it("expands ~, ${userHome} and ${workspaceFolder}, and takes relative paths from the folder", () => {
    const h = host([]);
    assert.equal(
      expandSetting("~/venvs/k/bin/kesi-lsp", ["/w"], h),
      "/home/me/venvs/k/bin/kesi-lsp",
    );
    assert.equal(expandSetting("${userHome}/k", ["/w"], h), "/home/me/k");
    assert.equal(
      expandSetting("${workspaceFolder}/.venv/bin/kesi-lsp", ["/w"], h),
      "/w/.venv/bin/kesi-lsp",
    );
    assert.equal(expandSetting("tools/kesi-lsp", ["/w"], h), "/w/tools/kesi-lsp");
  });

  it("looks a bare command name up on PATH", () => {
    const h = host(["/usr/local/bin/my-kesi"], { PATH: "/usr/bin:/usr/local/bin" });
    assert.deepEqual(resolveServerPath("my-kesi", [], h), {
      ok: true,
      path: "/usr/local/bin/my-kesi",
      source: "setting",
    });
  });

  it("prefers the workspace's virtualenv over PATH", () => {
    const h = host(["/w/venv/bin/kesi-lsp", "/usr/bin/kesi-lsp"], { PATH: "/usr/bin" });
    assert.deepEqual(resolveServerPath("", ["/w"], h), {
      ok: true,
      path: "/w/venv/bin/kesi-lsp",
      source: "venv",
    });
  });

  it("checks .venv before venv, and every folder in order", () => {
    const h = host(["/b/.venv/bin/kesi-lsp", "/a/venv/bin/kesi-lsp"]);
    const found = resolveServerPath("", ["/a", "/b"], h);
    assert.ok(found.ok);
    assert.equal(found.path, "/a/venv/bin/kesi-lsp");
  });

  it("uses $VIRTUAL_ENV, then PATH", () => {
    const venv = resolveServerPath(
      "",
      ["/w"],
      host(["/env/bin/kesi-lsp", "/usr/bin/kesi-lsp"], { VIRTUAL_ENV: "/env", PATH: "/usr/bin" }),
    );
    assert.deepEqual(venv, { ok: true, path: "/env/bin/kesi-lsp", source: "virtualenv" });
    const onPath = resolveServerPath(
      "",
      ["/w"],
      host(["/usr/bin/kesi-lsp"], { PATH: "/bin:/usr/bin" }),
    );
    assert.deepEqual(onPath, { ok: true, path: "/usr/bin/kesi-lsp", source: "path" });
  });

  it("says everywhere it looked when kesi-lsp is nowhere", () => {
    const found = resolveServerPath("", ["/w"], host([], { PATH: "/usr/bin" }));
    assert.deepEqual(found, {
      ok: false,
      reason: "notFound",
      tried: ["/w/.venv/bin", "/w/venv/bin", "PATH"],
    });
  });

  it("knows Windows virtualenvs keep scripts in Scripts with an .exe", () => {
    const h = host(["C:\\w\\.venv\\Scripts\\kesi-lsp.exe"], { Path: "C:\\Windows" }, "win32");
    assert.deepEqual(resolveServerPath("", ["C:\\w"], h), {
      ok: true,
      path: "C:\\w\\.venv\\Scripts\\kesi-lsp.exe",
      source: "venv",
    });
  });
});
