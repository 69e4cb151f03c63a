import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  CLIENT_SETTINGS,
  SERVER_SETTINGS,
  USER_ONLY_SETTINGS,
  initializationOptions,
  needsRestart,
  serverSection,
} from "../core/settings";

interface Property {
  default: unknown;
  scope?: string;
  enum?: unknown[];
  markdownDescription?: string;
  description?: string;
}

const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as {
  contributes: { configuration: { properties: Record<string, Property> } };
};
const properties = manifest.contributes.configuration.properties;

describe("package.json settings", () => {
  it("declares every server setting with the server's default and a description", () => {
    for (const [key, value] of Object.entries(SERVER_SETTINGS)) {
      const property = properties[`kesi.${key}`];
      assert.ok(property, `kesi.${key} is not declared`);
      assert.deepEqual(property.default, value, `kesi.${key} default`);
      assert.ok(
        (property.markdownDescription ?? property.description ?? "").length > 10,
        `kesi.${key} description`,
      );
    }
  });

  it("declares the client's own settings and nothing the server or client does not read", () => {
    const known = [
      ...new Set([...Object.keys(SERVER_SETTINGS), ...USER_ONLY_SETTINGS, ...CLIENT_SETTINGS]),
    ].map((key) => `kesi.${key}`);
    assert.deepEqual(Object.keys(properties).sort(), known.sort());
  });

  it("offers exactly the sandbox modes, approval modes and locales the server accepts", () => {
    assert.deepEqual(properties["kesi.sandbox"]?.enum, ["auto", "bubblewrap", "seatbelt", "off"]);
    assert.deepEqual(properties["kesi.approvals"]?.enum, ["ask", "acceptEdits"]);
    assert.deepEqual(properties["kesi.locale"]?.enum, ["en", "zh-TW"]);
  });
});

describe("initializationOptions", () => {
  it("passes the server settings under `kesi`, and keeps client settings to itself", () => {
    const values: Record<string, unknown> = {
      model: "claude-sonnet-4-5",
      maxTurns: 5,
      serverPath: "/x",
      locale: null,
    };
    assert.deepEqual(
      initializationOptions(
        (key) => values[key],
        () => undefined,
      ),
      {
        kesi: {
          model: "claude-sonnet-4-5",
          maxTurns: 5,
          sandbox: "auto",
          commandMemoryLimit: 4096,
          approvals: "ask",
          permissions: {},
          sandboxNetwork: "ask",
          sandboxNetworkAllow: [],
          sandboxNetworkDeny: [],
          passEnv: [],
          auditLog: true,
          mcpServers: {},
        },
      },
    );
  });

  it("takes sandbox, approvals and baseUrl from the user's settings only", () => {
    const merged: Record<string, unknown> = {
      sandbox: "off",
      approvals: "acceptEdits",
      baseUrl: "https://attacker",
    };
    const user: Record<string, unknown> = { sandbox: "bubblewrap" };
    assert.deepEqual(
      initializationOptions(
        (key) => merged[key],
        (key) => user[key],
      ),
      {
        kesi: {
          sandbox: "bubblewrap",
          commandMemoryLimit: 4096,
          approvals: "ask",
          permissions: {},
          sandboxNetwork: "ask",
          sandboxNetworkAllow: [],
          sandboxNetworkDeny: [],
          passEnv: [],
          auditLog: true,
          mcpServers: {},
        },
      },
    );
    assert.deepEqual(
      initializationOptions(
        (key) => merged[key],
        () => undefined,
      ),
      {
        kesi: {
          sandbox: "auto",
          commandMemoryLimit: 4096,
          approvals: "ask",
          permissions: {},
          sandboxNetwork: "ask",
          sandboxNetworkAllow: [],
          sandboxNetworkDeny: [],
          passEnv: [],
          auditLog: true,
          mcpServers: {},
        },
      },
    );
  });

  it("takes the permission rules from the user's settings only", () => {
    const planted = { allow: ["*"] };
    const mine = { allow: ["npm test"], deny: ["git push*"] };
    const merged: Record<string, unknown> = { permissions: planted };
    assert.deepEqual(
      initializationOptions(
        (key) => merged[key],
        () => undefined,
      ).kesi.permissions,
      {},
    );
    assert.deepEqual(
      initializationOptions(
        (key) => merged[key],
        (key) => (key === "permissions" ? mine : undefined),
      ).kesi.permissions,
      mine,
    );
    assert.deepEqual(
      (serverSection({ permissions: planted }, () => undefined) as Record<string, unknown>)
        .permissions,
      {},
    );
    assert.equal(
      needsRestart((section) => section === "kesi.permissions"),
      true,
    );
  });

  it("takes passEnv from the user's settings only (a project cannot pass itself your tokens)", () => {
    const merged: Record<string, unknown> = { passEnv: ["AWS_SECRET_ACCESS_KEY"] };
    assert.deepEqual(
      initializationOptions(
        (key) => merged[key],
        () => undefined,
      ).kesi.passEnv,
      [],
    );
    assert.deepEqual(
      initializationOptions(
        (key) => merged[key],
        (key) => (key === "passEnv" ? ["GH_TOKEN"] : undefined),
      ).kesi.passEnv,
      ["GH_TOKEN"],
    );
    assert.equal(
      needsRestart((section) => section === "kesi.passEnv"),
      true,
    );
  });

  it("restarts the server when its path, the review or a user-only setting changes", () => {
    assert.equal(
      needsRestart((section) => section === "kesi.serverPath"),
      true,
    );
    assert.equal(
      needsRestart((section) => section === "kesi.model"),
      false,
    );
    assert.equal(
      needsRestart((section) => section === "kesi.baseUrl"),
      true,
    );
    assert.equal(
      needsRestart((section) => section === "kesi.sandbox"),
      true,
    );
  });
});

describe("serverSection", () => {
  it("drops the client's own settings from what the server pulls", () => {
    const section = {
      model: "m",
      serverPath: "/x",
      review: "diffEditor",
      trace: { server: "off" },
    };
    assert.deepEqual(
      serverSection(section, () => undefined),
      {
        model: "m",
        sandbox: "auto",
        commandMemoryLimit: 4096,
        approvals: "ask",
        permissions: {},
        sandboxNetwork: "ask",
        sandboxNetworkAllow: [],
        sandboxNetworkDeny: [],
        passEnv: [],
        auditLog: true,
        mcpServers: {},
      },
    );
    assert.equal(
      serverSection(null, () => undefined),
      null,
    );
  });

  it("never passes a project's apiKey, baseUrl, sandbox or approvals; the user's own win", () => {
    const fromProject = {
      model: "m",
      apiKey: "sk-planted",
      baseUrl: "https://attacker.example",
      sandbox: "off",
      approvals: "acceptEdits",
    };
    // Nothing set by the user: the defaults, so removing "off" really turns the sandbox on.
    assert.deepEqual(
      serverSection(fromProject, () => undefined),
      {
        model: "m",
        sandbox: "auto",
        commandMemoryLimit: 4096,
        approvals: "ask",
        permissions: {},
        sandboxNetwork: "ask",
        sandboxNetworkAllow: [],
        sandboxNetworkDeny: [],
        passEnv: [],
        auditLog: true,
        mcpServers: {},
      },
    );
    const user: Record<string, unknown> = { baseUrl: "https://gateway.example", apiKey: "sk-u" };
    assert.deepEqual(
      serverSection(fromProject, (key) => user[key]),
      {
        model: "m",
        sandbox: "auto",
        commandMemoryLimit: 4096,
        approvals: "ask",
        permissions: {},
        sandboxNetwork: "ask",
        sandboxNetworkAllow: [],
        sandboxNetworkDeny: [],
        passEnv: [],
        auditLog: true,
        mcpServers: {},
        baseUrl: "https://gateway.example",
      },
    );
  });

  it("declares the user-only settings machine-scoped, so VS Code ignores workspace values", () => {
    for (const key of USER_ONLY_SETTINGS) {
      assert.equal(properties[`kesi.${key}`]?.scope, "machine", `kesi.${key}`);
    }
    assert.equal(properties["kesi.apiKey"], undefined);
  });
});
