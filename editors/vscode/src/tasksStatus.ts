/**
 * Background tasks (issue 28): a status bar item while the session's tasks run, and a quick
 * pick of them (the server's lines) whose choice stops that task. The item follows
 * `kesi/tasks`, which the server sends whenever a task starts or ends; every line is the
 * server's, in the session's locale.
 */

import * as vscode from "vscode";
import { ExecuteCommandRequest, type BaseLanguageClient } from "vscode-languageclient";
import { t } from "./core/messages";
import type { TaskItem, TasksChangedParams, TasksResult } from "./core/protocol";
import { currentLocale } from "./locale";

export const SHOW_TASKS = "kesi.showTasks";

function isTasks(value: unknown): value is { tasks: TaskItem[]; lines: string[] } {
  const shaped = value as Partial<TasksResult> | null;
  return typeof shaped === "object" && shaped !== null && Array.isArray(shaped.tasks);
}

export class TasksStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    "kesi.tasks",
    vscode.StatusBarAlignment.Left,
    -1,
  );
  private readonly byFolder = new Map<string, TaskItem[]>();
  private readonly command: vscode.Disposable;

  constructor(private readonly client: () => BaseLanguageClient | undefined) {
    this.item.name = "KeSi tasks";
    this.item.command = SHOW_TASKS;
    this.command = vscode.commands.registerCommand(SHOW_TASKS, () => this.pick());
  }

  /** `kesi/tasks`: a task of a folder started or ended; the folder's listing as it is now. */
  onChanged(params: unknown): void {
    const changed = params as Partial<TasksChangedParams> | null;
    const uri = changed?.uri;
    if (!isTasks(changed) || typeof uri !== "string") {
      return;
    }
    this.byFolder.set(uri, changed.tasks);
    this.update();
  }

  serverStopped(): void {
    this.byFolder.clear();
    this.update();
  }

  private running(): TaskItem[] {
    return [...this.byFolder.values()].flat().filter((task) => task.state === "running");
  }

  private update(): void {
    const running = this.running();
    if (running.length === 0) {
      this.item.hide();
      return;
    }
    const locale = currentLocale();
    this.item.text = `$(server-process) ${t("tasks.status", locale, { count: String(running.length) })}`;
    this.item.tooltip = running.map((task) => task.line).join("\n");
    this.item.show();
  }

  private async request(command: string, argument: object): Promise<unknown> {
    const client = this.client();
    if (client === undefined) {
      return undefined;
    }
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [argument] });
  }

  /** The folder's tasks in a quick pick; picking a running one stops it. */
  private async pick(): Promise<void> {
    const locale = currentLocale();
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const listed = await this.request("kesi.tasks", uri ? { uri } : {});
    if (!isTasks(listed)) {
      return;
    }
    if (listed.tasks.length === 0) {
      void vscode.window.showInformationMessage(listed.lines.join("\n"));
      return;
    }
    const items = listed.tasks.map((task) => ({ label: task.line, task }));
    const chosen = await vscode.window.showQuickPick(items, {
      placeHolder: t("tasks.pick", locale),
    });
    if (chosen === undefined || chosen.task.state !== "running") {
      return;
    }
    try {
      const answer = (await this.request("kesi.stopTask", {
        taskId: chosen.task.taskId,
        ...(uri ? { uri } : {}),
      })) as { message?: string } | undefined;
      if (typeof answer?.message === "string") {
        void vscode.window.showInformationMessage(answer.message);
      }
    } catch (error) {
      void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    }
  }

  dispose(): void {
    this.command.dispose();
    this.item.dispose();
  }
}
