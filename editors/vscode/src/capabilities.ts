/** Announces `capabilities.experimental.kesi` so the server streams and asks us to save. */

import type { ClientCapabilities, FeatureState, StaticFeature } from "vscode-languageclient";
import { kesiClientCapabilities } from "./core/protocol";

export class KesiCapabilities implements StaticFeature {
  constructor(private readonly reviewEdit: boolean) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
    capabilities.experimental = { ...experimental, kesi: kesiClientCapabilities(this.reviewEdit) };
  }

  initialize(): void {}

  getState(): FeatureState {
    return { kind: "static" };
  }

  clear(): void {}
}
