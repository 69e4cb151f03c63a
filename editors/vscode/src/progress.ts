/**
 * Server-initiated work-done progress as a **notification with a Cancel button**.
 *
 * vscode-languageclient shows `$/progress` in the status bar, where VS Code offers no Cancel.
 * A KeSi run announces `cancellable: true` (design.md §2.5), so this feature takes over
 * `window/workDoneProgress/create`: cancellable progress becomes a notification whose Cancel
 * sends `window/workDoneProgress/cancel`; other progress stays in the status bar.
 */

import * as vscode from "vscode";
import {
  WorkDoneProgress,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
  type BaseLanguageClient,
  type ClientCapabilities,
  type FeatureState,
  type ProgressToken,
  type StaticFeature,
  type WorkDoneProgressBegin,
  type WorkDoneProgressEnd,
  type WorkDoneProgressReport,
} from "vscode-languageclient";

type Value = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

class ProgressPart {
  private report: vscode.Progress<{ message?: string }> | undefined;
  private finish: (() => void) | undefined;
  private ended = false;
  private readonly listener: vscode.Disposable;

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly token: ProgressToken,
    private readonly onDone: (part: ProgressPart) => void,
  ) {
    this.listener = client.onProgress(WorkDoneProgress.type, token, (value: Value) => {
      if (value.kind === "begin") {
        this.begin(value);
      } else if (value.kind === "report") {
        this.show(value.message);
      } else {
        this.done();
      }
    });
  }

  private begin(value: WorkDoneProgressBegin): void {
    const cancellable = value.cancellable === true;
    const location = cancellable
      ? vscode.ProgressLocation.Notification
      : vscode.ProgressLocation.Window;
    void vscode.window.withProgress(
      { location, title: value.title, cancellable },
      (progress, cancellation) => {
        if (this.ended) {
          return Promise.resolve();
        }
        this.report = progress;
        cancellation.onCancellationRequested(() => {
          void this.client.sendNotification(WorkDoneProgressCancelNotification.type, {
            token: this.token,
          });
        });
        this.show(value.message);
        return new Promise<void>((resolve) => {
          this.finish = resolve;
        });
      },
    );
  }

  private show(message: string | undefined): void {
    if (message !== undefined) {
      this.report?.report({ message });
    }
  }

  done(): void {
    this.ended = true;
    this.listener.dispose();
    this.finish?.();
    this.onDone(this);
  }
}

export class NotificationProgress implements StaticFeature {
  private readonly parts = new Set<ProgressPart>();

  constructor(private readonly client: BaseLanguageClient) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.window = { ...capabilities.window, workDoneProgress: true };
  }

  /** Runs after the built-in progress feature, so this handler is the one that stays. */
  initialize(): void {
    this.client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      this.parts.add(new ProgressPart(this.client, token, (part) => this.parts.delete(part)));
    });
  }

  getState(): FeatureState {
    return { kind: "static" };
  }

  clear(): void {
    for (const part of [...this.parts]) {
      part.done();
    }
  }
}
