/**
 * The model's explanation as HTML for the KeSi panel: the markdown a model writes (paragraphs,
 * headings, lists, quotes, fenced code, `code`, **bold**, *italic*, links), nothing more.
 *
 * Everything is escaped first and only these constructs become tags, so the model's text can
 * never inject markup, scripts or remote content into the panel (a link shows its text and its
 * address, and is not followed: the panel loads nothing from outside). A half-streamed fence
 * renders as code until it closes, so text does not jump when the closing fence arrives.
 */

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Inline markdown of one line: code spans first (their content stays literal, and emphasis
 * may wrap them: **`add` subtracts**), then emphasis and links on the escaped rest. */
export function inline(line: string): string {
  const codes: string[] = [];
  const held = line.replace(/`([^`]+)`/g, (_whole, code: string) => {
    codes.push(`<code>${escapeHtml(code)}</code>`);
    return `\ue000${codes.length - 1}\ue001`;
  });
  return escapeHtml(held)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, "$1<em>$2</em>")
    .replace(/(^|[^_\w])_([^_\s][^_]*)_(?!\w)/g, "$1<em>$2</em>")
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<span class="link" title="$2">$1</span>')
    .replace(/\ue000(\d+)\ue001/g, (_whole, index: string) => codes[Number(index)] ?? "");
}

interface Block {
  kind: "p" | "ul" | "ol" | "quote";
  lines: string[];
}

const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+(.*)$/;

function closeBlock(block: Block | undefined, out: string[]): void {
  if (!block || block.lines.length === 0) {
    return;
  }
  if (block.kind === "p") {
    out.push(`<p>${block.lines.map(inline).join("<br>")}</p>`);
  } else if (block.kind === "quote") {
    out.push(`<blockquote>${block.lines.map(inline).join("<br>")}</blockquote>`);
  } else {
    const items = block.lines.map((item) => `<li>${inline(item)}</li>`).join("");
    out.push(`<${block.kind}>${items}</${block.kind}>`);
  }
}

/** `text` (markdown, possibly still streaming) as safe HTML. */
export function renderMarkdown(text: string): string {
  const out: string[] = [];
  let block: Block | undefined;
  let fence: { lang: string; lines: string[] } | undefined;
  const flush = (): void => {
    closeBlock(block, out);
    block = undefined;
  };
  for (const line of text.split("\n")) {
    if (fence) {
      if (/^\s*```/.test(line)) {
        out.push(codeBlock(fence.lang, fence.lines));
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const opening = /^\s*```\s*([\w+-]*)/.exec(line);
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = LIST_ITEM.exec(line);
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (opening) {
      flush();
      fence = { lang: opening[1] ?? "", lines: [] };
    } else if (line.trim() === "") {
      flush();
    } else if (heading) {
      flush();
      const level = Math.min(6, (heading[1] ?? "#").length + 2); // h3.. in a narrow panel
      out.push(`<h${level}>${inline(heading[2] ?? "")}</h${level}>`);
    } else if (item) {
      const kind = /\d/.test(item[1] ?? "") ? "ol" : "ul";
      if (block?.kind !== kind) {
        flush();
        block = { kind, lines: [] };
      }
      block.lines.push(item[2] ?? "");
    } else if (quote) {
      if (block?.kind !== "quote") {
        flush();
        block = { kind: "quote", lines: [] };
      }
      block.lines.push(quote[1] ?? "");
    } else if (block && block.kind !== "p" && block.kind !== "quote" && /^\s+\S/.test(line)) {
      const last = block.lines.length - 1;
      block.lines[last] = `${block.lines[last] ?? ""} ${line.trim()}`; // a list item continues
    } else {
      if (block?.kind !== "p") {
        flush();
        block = { kind: "p", lines: [] };
      }
      block.lines.push(line);
    }
  }
  flush();
  if (fence) {
    out.push(codeBlock(fence.lang, fence.lines));
  }
  return out.join("\n");
}

function codeBlock(lang: string, lines: string[]): string {
  const label = lang ? ` data-lang="${escapeHtml(lang)}"` : "";
  return `<pre class="code"${label}><code>${escapeHtml(lines.join("\n"))}</code></pre>`;
}
