/**
 * Server-initiated work-done progress, where it does not cover the work (issue 32).
 *
 * A KeSi run's progress is cancellable (design.md §2.5). A notification for it sat over the
 * streaming text and the review for the whole run, so this feature takes over
 * `window/workDoneProgress/create`: a run's progress goes to `show` (the status bar item and
 * the KeSi panel carry the step, and both cancel the run: the item's click, the panel's Cancel,
 * through `kesi.cancel`). Other progress
 * stays in the status bar as VS Code shows it.
 */

import * as vscode from "vscode";
import {
  WorkDoneProgress,
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
    client: BaseLanguageClient,
    readonly token: ProgressToken,
    private readonly onDone: (part: ProgressPart) => void,
    private readonly sink: (message: string | undefined) => void,
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

  private cancellable = false;

  private begin(value: WorkDoneProgressBegin): void {
    if (value.cancellable === true) {
      this.cancellable = true;
      this.show(value.message);
      return;
    }
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: value.title },
      (progress) => {
        if (this.ended) {
          return Promise.resolve();
        }
        this.report = progress;
        this.show(value.message);
        return new Promise<void>((resolve) => {
          this.finish = resolve;
        });
      },
    );
  }

  private show(message: string | undefined): void {
    if (message === undefined) {
      return;
    }
    if (this.cancellable) {
      this.sink(message);
    } else {
      this.report?.report({ message });
    }
  }

  done(): void {
    if (this.cancellable && !this.ended) {
      this.sink(undefined);
    }
    this.ended = true;
    this.listener.dispose();
    this.finish?.();
    this.onDone(this);
  }
}

export class RunProgress implements StaticFeature {
  private readonly parts = new Set<ProgressPart>();

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly sink: (message: string | undefined) => void,
  ) {}

  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.window = { ...capabilities.window, workDoneProgress: true };
  }

  /** Runs after the built-in progress feature, so this handler is the one that stays. */
  initialize(): void {
    this.client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      const done = (part: ProgressPart): void => void this.parts.delete(part);
      this.parts.add(new ProgressPart(this.client, token, done, this.sink));
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
