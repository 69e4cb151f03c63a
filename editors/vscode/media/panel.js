// The KeSi panel's page script: shows the transcript the extension renders, and sends back
// what the user does (a question's answer, a reply, a cancel). No network, no eval: the page's
// CSP allows this script (by nonce) and the extension's stylesheet, nothing else.
(function () {
  const vscode = acquireVsCodeApi();
  const log = document.getElementById("log");
  const status = document.getElementById("status");
  const form = document.getElementById("reply");
  const prompt = document.getElementById("prompt");
  const cancel = document.getElementById("cancel");

  function nearBottom() {
    const page = document.scrollingElement || document.documentElement;
    return page.scrollHeight - page.scrollTop - page.clientHeight < 80;
  }

  function render(message) {
    const follow = nearBottom();
    const open = new Set();
    for (const details of log.querySelectorAll("details[open]")) {
      open.add(details.querySelector("summary")?.textContent ?? "");
    }
    // A re-render replaces the buttons: keep the keyboard on the hunk button it was on.
    const focused = document.activeElement?.closest?.("button[data-hunk]");
    const refocus = focused
      ? `button[data-question="${focused.dataset.question}"][data-hunk="${focused.dataset.hunk}"]` +
        `[data-accept="${focused.dataset.accept}"]`
      : undefined;
    log.innerHTML = message.html;
    if (refocus) {
      log.querySelector(refocus)?.focus();
    }
    for (const details of log.querySelectorAll("details")) {
      if (open.has(details.querySelector("summary")?.textContent ?? "")) {
        details.open = true;
      }
    }
    status.textContent = message.status || "";
    cancel.disabled = !message.running;
    document.body.classList.toggle("running", Boolean(message.running));
    const question = log.querySelector(".question.open");
    if (question && message.focusQuestion) {
      question.scrollIntoView({ block: "center" });
      const button =
        question.querySelector("button:not(.secondary)") || question.querySelector("button");
      button?.focus();
    } else if (follow) {
      window.scrollTo(0, document.body.scrollHeight);
    }
  }

  window.addEventListener("message", (event) => {
    const message = event.data;
    if (message && message.type === "render") {
      render(message);
    } else if (message && message.type === "focusReply") {
      prompt.focus();
    }
  });

  log.addEventListener("click", (event) => {
    const hunk = event.target.closest("button[data-hunk]");
    if (hunk) {
      vscode.postMessage({
        type: "hunk",
        id: hunk.dataset.question,
        index: Number(hunk.dataset.hunk),
        accept: hunk.dataset.accept === "true",
      });
      return;
    }
    const button = event.target.closest("button[data-question]");
    if (button) {
      for (const other of button.parentElement.querySelectorAll("button")) {
        other.disabled = true;
      }
      vscode.postMessage({
        type: "answer",
        id: button.dataset.question,
        answer: button.dataset.answer,
      });
    }
  });

  function send() {
    const text = prompt.value.trim();
    if (text) {
      vscode.postMessage({ type: "ask", prompt: text });
      prompt.value = "";
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send();
  });
  prompt.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  });
  cancel.addEventListener("click", () => vscode.postMessage({ type: "cancel" }));
  vscode.postMessage({ type: "ready" });
})();
