import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamEvent } from "../core/protocol";
import { StreamRenderer } from "../core/stream";

function renderer(): { out: () => string; r: StreamRenderer } {
  let text = "";
  const r = new StreamRenderer({ append: (s) => (text += s) }, () => "en");
  return { out: () => text, r };
}

const run = "r1";

describe("StreamRenderer", () => {
  it("shows a call's input arriving in place, then the call's own line instead", () => {
    let text = "";
    const sink = { append: (s: string) => (text += s), replace: (s: string) => (text = s) };
    const r = new StreamRenderer(sink, () => "en");
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Writing it." });
    for (const size of ["1 KB", "4 KB", "12 KB"]) {
      const line = `  [tool] write_file: rates.py · ${size} so far`;
      r.event({
        runId: run,
        kind: "toolInput",
        toolUseId: "u",
        tool: "write_file",
        received: 1,
        line,
      });
      assert.equal(text, `━━ t ━━\nWriting it.\n${line}\n`);
    }
    r.event({
      runId: run,
      kind: "toolStart",
      tool: "write_file",
      line: "  [tool] write_file: rates.py",
    });
    assert.equal(text, "━━ t ━━\nWriting it.\n  [tool] write_file: rates.py\n");
  });

  it("appends model text exactly as it streams", () => {
    const { out, r } = renderer();
    r.runStarted(run, "Fix this · calc.py:3");
    for (const piece of ["The bug ", "is in `add`", ": it subtracts."]) {
      r.event({ runId: run, kind: "text", text: piece });
    }
    assert.equal(out(), "━━ Fix this · calc.py:3 ━━\nThe bug is in `add`: it subtracts.");
  });

  it("shows each event's line as the server wrote it, on a line of its own", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Let me run the tests" });
    r.event({ runId: run, kind: "toolStart", tool: "run_command", line: "〔S〕 run pytest -q" });
    r.event({
      runId: run,
      kind: "toolEnd",
      tool: "run_command",
      isError: true,
      summary: "exit 1",
      line: "〔E〕 exit 1 · 1 failed",
    });
    r.event({ runId: run, kind: "text", text: "One test fails." });
    assert.equal(
      out(),
      "━━ t ━━\nLet me run the tests\n〔S〕 run pytest -q\n〔E〕 exit 1 · 1 failed\nOne test fails.",
    );
  });

  it("titles a run it was not told about, once", () => {
    const { out, r } = renderer();
    r.event({ runId: run, kind: "text", text: "a" });
    r.event({ runId: run, kind: "text", text: "b" });
    assert.equal(out(), "━━ KeSi run ━━\nab");
  });

  it("separates consecutive runs with a blank line", () => {
    const { out, r } = renderer();
    r.runStarted("a", "first");
    r.runFinished({ runId: "a", status: "done", text: "ok", line: "〔done · $0.0123〕" });
    r.runStarted("b", "second");
    assert.equal(out(), "━━ first ━━\n━━ 〔done · $0.0123〕 ━━\n\n━━ second ━━\n");
  });

  it("ends a run with the server's close and its last line, the bill once (Day 18)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const bill = "（本輪 3 次請求，input 16,227、output 530，$0.0189；累計 $0.0189）";
    r.runFinished({
      runId: run,
      status: "done",
      statusText: "完成",
      bill,
      lines: ["  [已驗證] pytest -q：1 passed", `  ${bill}`],
      line: `完成 · 已驗證 · ${bill}`,
    });
    assert.equal(out(), `━━ t ━━\n  [已驗證] pytest -q：1 passed\n━━ 完成 · 已驗證 · ${bill} ━━\n`);
  });

  it("shows the server's words for a run that did not finish normally", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Working" });
    r.runFinished({
      runId: run,
      status: "cancelled",
      text: "〔interrupted〕",
      lines: ["KeSi > 〔interrupted〕"],
      line: "〔cancelled〕",
    });
    assert.equal(out(), "━━ t ━━\nWorking\nKeSi > 〔interrupted〕\n━━ 〔cancelled〕 ━━\n");
  });

  it("does not repeat the final text of a run that is done (it already streamed)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Fixed.\n" });
    r.runFinished({ runId: run, status: "done", text: "Fixed.\n", lines: [], line: "〔done〕" });
    assert.equal(out(), "━━ t ━━\nFixed.\n━━ 〔done〕 ━━\n");
  });

  it("shows nothing for an event the server gave no line (a turn, a round's usage)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const events: StreamEvent[] = [
      { runId: run, kind: "usage", purpose: "turn" },
      { runId: run, kind: "usage", purpose: "turn", line: "" },
      { runId: run, kind: "turn", turn: 2, maxTurns: 20, line: "", lines: [] },
      { runId: run, kind: "notice", text: "529", line: "〔overloaded; retrying〕" },
    ];
    events.forEach((e) => r.event(e));
    assert.equal(out(), "━━ t ━━\n〔overloaded; retrying〕\n");
  });

  it("titles an untold run in the editor's locale", () => {
    let text = "";
    const r = new StreamRenderer({ append: (s) => (text += s) }, () => "zh-TW");
    r.runFinished({ runId: run, status: "limit", text: "", line: "〔limit〕" });
    assert.equal(text, "━━ KeSi 執行 ━━\n━━ 〔limit〕 ━━\n");
  });
});

describe("edits", () => {
  it("shows an applied edit's lines as the server wrote them, its diff under it", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const lines = ["〔edited calc.py〕", "    -    return a - b", "    +    return a + b"];
    r.event({
      runId: run,
      kind: "edit",
      tool: "edit_file",
      path: "calc.py",
      line: lines[0],
      lines,
    });
    assert.equal(out(), ["━━ t ━━", ...lines, ""].join("\n"));
  });
});

describe("a search sub-agent", () => {
  const nested = { parentToolUseId: "toolu_s", agent: "search", depth: 1 };

  it("indents the search's text under its call; its lines come as the server placed them", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const events: StreamEvent[] = [
      { runId: run, kind: "toolStart", toolUseId: "toolu_s", tool: "search_agent", line: "〔A〕" },
      { runId: run, kind: "text", text: "Searching.\nFirst grep.", ...nested },
      { runId: run, kind: "toolStart", tool: "grep", line: "    〔B〕", ...nested },
      { runId: run, kind: "toolEnd", tool: "grep", isError: false, line: "    〔C〕", ...nested },
      {
        runId: run,
        kind: "toolEnd",
        tool: "search_agent",
        isError: false,
        line: "〔D〕\n    〔$〕",
      },
    ];
    events.forEach((e) => r.event(e));
    assert.equal(
      out(),
      [
        "━━ t ━━",
        "〔A〕",
        "    Searching.",
        "    First grep.",
        "    〔B〕",
        "    〔C〕",
        "〔D〕",
        "    〔$〕",
        "",
      ].join("\n"),
    );
  });
});
