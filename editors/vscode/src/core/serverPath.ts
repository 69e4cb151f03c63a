/**
 * Where `kesi-lsp` lives: the `kesi.serverPath` setting when set, else the workspace's own
 * virtualenv (`.venv`, `venv`), else the active `$VIRTUAL_ENV`, else `PATH`.
 *
 * A project's virtualenv comes before `PATH` because that is the kesi-lsp the project pinned.
 * A `kesi.serverPath` that points nowhere is an error, never a silent fallback: the user asked
 * for that executable and should hear that it is not there.
 */

import * as path from "node:path";

export interface Host {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  home: string;
  /** True for an existing regular file this process may execute. */
  isExecutable(file: string): boolean;
}

export type Resolution =
  | { ok: true; path: string; source: "setting" | "venv" | "virtualenv" | "path" }
  | { ok: false; reason: "badSetting"; path: string }
  | { ok: false; reason: "notFound"; tried: string[] };

const VENV_DIRS = [".venv", "venv"];

function executableNames(host: Host): string[] {
  if (host.platform !== "win32") {
    return ["kesi-lsp"];
  }
  return ["kesi-lsp.exe", "kesi-lsp.cmd", "kesi-lsp.bat"];
}

function pathApi(host: Host): path.PlatformPath {
  return host.platform === "win32" ? path.win32 : path.posix;
}

function binDir(venv: string, host: Host): string {
  return pathApi(host).join(venv, host.platform === "win32" ? "Scripts" : "bin");
}

/** `~`, `${userHome}`, `${workspaceFolder}` expanded; relative paths taken from the folder. */
export function expandSetting(value: string, folders: string[], host: Host): string {
  const p = pathApi(host);
  const folder = folders[0] ?? "";
  let expanded = value
    .trim()
    .replace(/\$\{userHome\}/g, host.home)
    .replace(/\$\{workspaceFolder\}/g, folder);
  if (expanded === "~" || expanded.startsWith("~/") || expanded.startsWith("~\\")) {
    expanded = p.join(host.home, expanded.slice(1));
  }
  if (!p.isAbsolute(expanded) && folder && /[\\/]/.test(expanded)) {
    expanded = p.join(folder, expanded);
  }
  return expanded;
}

function searchPath(names: string[], host: Host): { found?: string; tried: string[] } {
  const p = pathApi(host);
  const dirs = (host.env.PATH ?? host.env.Path ?? "").split(p.delimiter).filter(Boolean);
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = p.join(dir, name);
      if (host.isExecutable(candidate)) {
        return { found: candidate, tried: [] };
      }
    }
  }
  return { tried: ["PATH"] };
}

export function resolveServerPath(setting: string, folders: string[], host: Host): Resolution {
  const names = executableNames(host);
  if (setting.trim() !== "") {
    const expanded = expandSetting(setting, folders, host);
    if (pathApi(host).isAbsolute(expanded)) {
      return host.isExecutable(expanded)
        ? { ok: true, path: expanded, source: "setting" }
        : { ok: false, reason: "badSetting", path: expanded };
    }
    // A bare command name ("kesi-lsp", "my-kesi"): look it up on PATH.
    const onPath = searchPath(
      host.platform === "win32" ? [expanded, `${expanded}.exe`] : [expanded],
      host,
    );
    return onPath.found
      ? { ok: true, path: onPath.found, source: "setting" }
      : { ok: false, reason: "badSetting", path: expanded };
  }

  const tried: string[] = [];
  for (const folder of folders) {
    for (const venv of VENV_DIRS) {
      const dir = binDir(pathApi(host).join(folder, venv), host);
      for (const name of names) {
        const candidate = pathApi(host).join(dir, name);
        if (host.isExecutable(candidate)) {
          return { ok: true, path: candidate, source: "venv" };
        }
      }
      tried.push(dir);
    }
  }
  const virtualEnv = host.env.VIRTUAL_ENV;
  if (virtualEnv) {
    const dir = binDir(virtualEnv, host);
    for (const name of names) {
      const candidate = pathApi(host).join(dir, name);
      if (host.isExecutable(candidate)) {
        return { ok: true, path: candidate, source: "virtualenv" };
      }
    }
    tried.push(dir);
  }
  const onPath = searchPath(names, host);
  if (onPath.found) {
    return { ok: true, path: onPath.found, source: "path" };
  }
  return { ok: false, reason: "notFound", tried: [...tried, ...onPath.tried] };
}
