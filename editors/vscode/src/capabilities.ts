/** Announces `capabilities.experimental.kesi` so the server streams and asks us to save. */

import type { ClientCapabilities, FeatureState, StaticFeature } from "vscode-languageclient";
import { KESI_CLIENT_CAPABILITIES } from "./core/protocol";

export class KesiCapabilities implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
    capabilities.experimental = { ...experimental, kesi: { ...KESI_CLIENT_CAPABILITIES } };
  }

  initialize(): void {}

  getState(): FeatureState {
    return { kind: "static" };
  }

  clear(): void {}
}
