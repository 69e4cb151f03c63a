import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kesiClientCapabilities } from "../core/protocol";
import {
  asReviewParams,
  decisionFor,
  reviewChoices,
  reviewPaths,
  reviewQuestion,
  reviewTitle,
} from "../core/review";
import { asReviewMode, needsRestart } from "../core/settings";

const params = {
  runId: "r",
  uri: "file:///w/calc.py",
  path: "calc.py",
  before: "a\n",
  after: "b\n",
  diff: "…",
};

describe("diff-editor review", () => {
  it("maps the pressed button to the server's decision, and dismissal to reject", () => {
    const choices = reviewChoices("en");
    assert.equal(decisionFor("Accept", choices), "accept");
    assert.equal(decisionFor("Accept for This Session", choices), "acceptSession");
    assert.equal(decisionFor("Reject", choices), "reject");
    assert.equal(decisionFor(undefined, choices), "reject");
    assert.equal(decisionFor("接受", reviewChoices("zh-TW")), "accept");
  });

  it("reads the request, new files included, and refuses malformed ones", () => {
    assert.deepEqual(asReviewParams(params), params);
    assert.equal(asReviewParams({ ...params, before: null })?.before, null);
    assert.equal(asReviewParams({ ...params, after: 3 }), undefined);
    assert.equal(asReviewParams(null), undefined);
  });

  it("says what is proposed, for an edit and for a new file", () => {
    assert.equal(reviewTitle(params, "en"), "calc.py (KeSi's proposed edit)");
    assert.equal(
      reviewQuestion({ ...params, before: null }, "en"),
      "KeSi wants to create calc.py. Keep this file?",
    );
    assert.equal(reviewQuestion(params, "zh-TW"), "KeSi 想修改 calc.py，要保留這個修改嗎？");
  });

  it("keeps the file name last in the virtual documents' paths", () => {
    assert.deepEqual(reviewPaths(3, "src/calc.py"), {
      before: "/3/before/src/calc.py",
      after: "/3/after/src/calc.py",
    });
  });

  it("announces reviewEdit only in diff-editor mode, which needs a restart to change", () => {
    const always = { stream: true, saveDocuments: true, plan: true, diagnostics: true };
    assert.deepEqual(kesiClientCapabilities(false), always);
    assert.deepEqual(kesiClientCapabilities(true), { ...always, reviewEdit: true });
    assert.equal(asReviewMode("diffEditor"), "diffEditor");
    assert.equal(asReviewMode("nonsense"), "refactorPreview");
    assert.equal(
      needsRestart((section) => section === "kesi.review"),
      true,
    );
  });
});
