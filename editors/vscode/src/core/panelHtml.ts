/**
 * The KeSi panel's HTML: the page (strict CSP, theme colours, no remote content) and the
 * transcript's entries as markup. Every string from the server or the model is escaped here;
 * the model's text goes through `renderMarkdown`, which escapes before it adds tags.
 */

import { escapeHtml, renderMarkdown } from "./markdown";
import type { Locale } from "./messages";
import { t } from "./messages";
import type { Entry } from "./transcript";

const e = escapeHtml;

function lines(values: readonly string[]): string {
  return values.map(e).join("\n");
}

function entryHtml(entry: Entry, locale: Locale): string {
  switch (entry.kind) {
    case "run":
      return `<h2 class="run" data-run="${e(entry.runId)}">${e(entry.title)}</h2>`;
    case "you":
      return `<div class="you" aria-label="${e(t("panel.you", locale))}">${e(entry.text)}</div>`;
    case "text":
      return `<div class="md depth${Math.min(entry.depth, 3)}">${renderMarkdown(entry.text)}</div>`;
    case "tool": {
      const state = entry.error ? "error" : entry.done ? "done" : "running";
      const result = entry.result.length ? `<pre>${lines(entry.result)}</pre>` : "";
      return (
        `<details class="tool ${state} depth${Math.min(entry.depth, 3)}">` +
        `<summary>${e(entry.line)}</summary>${result}</details>`
      );
    }
    case "note":
      return `<pre class="note">${lines(entry.lines.map((line) => line.trim()))}</pre>`;
    case "plan": {
      const current = entry.current ? `<div class="current">${e(entry.current)}</div>` : "";
      const items = entry.lines.map((line) => `<li>${e(line)}</li>`).join("");
      return (
        `<section class="plan" aria-label="${e(entry.title)}"><div class="title">` +
        `${e(entry.title)}</div><ul>${items}</ul>${current}</section>`
      );
    }
    case "question":
      return questionHtml(entry, locale);
    case "end":
      return (
        `<section class="end ${e(entry.status)}" aria-label="${e(entry.line)}">` +
        `${entry.lines.length ? `<pre>${lines(entry.lines.map((l) => l.trim()))}</pre>` : ""}` +
        `<div class="line">${e(entry.line)}</div></section>`
      );
  }
}

type Question = Extract<Entry, { kind: "question" }>;

function diffLine(line: string): string {
  const kind = line[0] === "+" ? "add" : line[0] === "-" ? "del" : "ctx";
  return `<span class="${kind}">${e(line)}</span>`;
}

/** One hunk of a review: its diff, and (while the review is open) its Accept and Reject. */
function hunkHtml(entry: Question, index: number, locale: Locale): string {
  const hunk = entry.hunks?.[index];
  if (!hunk) {
    return "";
  }
  const total = entry.hunks?.length ?? 0;
  const label = t("panel.hunk.label", locale, { index: String(index + 1), total: String(total) });
  const state = hunk.accepted === undefined ? "" : hunk.accepted ? "accepted" : "rejected";
  const said = state ? `<span class="state">${e(t(`panel.hunk.${state}`, locale))}</span>` : "";
  const button = (accept: boolean): string => {
    const word = t(accept ? "panel.hunk.accept" : "panel.hunk.reject", locale);
    const pressed = hunk.accepted === accept;
    return (
      `<button type="button" class="${accept ? "" : "secondary"}" data-hunk="${index}" ` +
      `data-question="${e(entry.id)}" data-accept="${accept}" aria-pressed="${pressed}" ` +
      `aria-label="${e(`${word} · ${label}`)}">${e(word)}</button>`
    );
  };
  const buttons =
    entry.answer === undefined ? `<div class="buttons">${button(true)}${button(false)}</div>` : "";
  return (
    `<div class="hunk ${state}" role="group" aria-label="${e(label)}">` +
    `<div class="head">${e(hunk.header)} ${said}</div>` +
    `<pre class="diff">${hunk.shown.map(diffLine).join("")}</pre>${buttons}</div>`
  );
}

function questionHtml(entry: Question, locale: Locale): string {
  const open = entry.answer === undefined;
  const hunks = (entry.hunks ?? []).map((_, index) => hunkHtml(entry, index, locale)).join("");
  const head =
    `<pre>${lines(entry.lines)}</pre>${hunks}` + `<div class="ask">${e(entry.question)}</div>`;
  if (!open) {
    const said = entry.answer ? t("panel.answered", locale, { answer: entry.answer }) : "";
    return `<section class="question answered">${head}<div class="said">${e(said)}</div></section>`;
  }
  const buttons = entry.actions
    .map(
      (title, index) =>
        `<button type="button" class="${index === 0 ? "secondary" : ""}" ` +
        `data-question="${e(entry.id)}" data-answer="${e(title)}">${e(title)}</button>`,
    )
    .join("");
  return (
    `<section class="question open" role="group" id="question-${e(entry.id)}" ` +
    `aria-label="${e(t("panel.question", locale))}">${head}` +
    `<div class="buttons">${buttons}</div></section>`
  );
}

/** The transcript's markup (what goes inside the log region). */
export function transcriptHtml(entries: readonly Entry[], locale: Locale): string {
  if (entries.length === 0) {
    return `<p class="empty">${e(t("panel.empty", locale))}</p>`;
  }
  return entries.map((entry) => entryHtml(entry, locale)).join("\n");
}

export interface PageUris {
  script: string;
  style: string;
  cspSource: string;
}

/** The page: nothing but our own script and style (by nonce and the webview's source). */
export function pageHtml(uris: PageUris, nonce: string, locale: Locale): string {
  const csp = [
    "default-src 'none'",
    `style-src ${uris.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${uris.cspSource}`,
    `font-src ${uris.cspSource}`,
  ].join("; ");
  const lang = locale === "zh-TW" ? "zh-Hant-TW" : "en";
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${e(uris.style)}">
<title>KeSi</title>
</head>
<body>
<div id="status" role="status" aria-live="polite"></div>
<main id="log" role="log" aria-live="polite" aria-label="${e(t("panel.log", locale))}" tabindex="0"></main>
<form id="reply">
<textarea id="prompt" rows="3" aria-label="${e(t("panel.reply", locale))}" placeholder="${e(t("panel.placeholder", locale))}"></textarea>
<div class="actions">
<button type="submit" id="send">${e(t("panel.send", locale))}</button>
<button type="button" id="cancel" class="secondary" disabled>${e(t("panel.cancel", locale))}</button>
</div>
</form>
<script nonce="${nonce}" src="${e(uris.script)}"></script>
</body>
</html>`;
}
