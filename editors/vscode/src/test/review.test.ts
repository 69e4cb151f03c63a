import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { kesiClientCapabilities } from "../core/protocol";
import { asReviewParams, decisionFor, reviewPaths } from "../core/review";
import { asReviewMode, needsRestart } from "../core/settings";

const params = {
  runId: "r",
  uri: "file:///w/calc.py",
  path: "calc.py",
  before: "a\n",
  after: "b\n",
  diff: "…",
  title: "〔calc.py: KeSi's edit〕",
  question: "〔keep it?〕",
  actions: [
    { title: "〔deny〕", decision: "reject" },
    { title: "〔once〕", decision: "accept" },
    { title: "〔session〕", decision: "acceptSession" },
  ],
};

describe("diff-editor review", () => {
  it("maps the pressed button to the server's decision, and dismissal to reject", () => {
    const review = asReviewParams(params);
    assert.ok(review);
    assert.equal(decisionFor("〔once〕", review.actions), "accept");
    assert.equal(decisionFor("〔session〕", review.actions), "acceptSession");
    assert.equal(decisionFor("〔deny〕", review.actions), "reject");
    assert.equal(decisionFor(undefined, review.actions), "reject");
    assert.equal(decisionFor("Accept", review.actions), "reject");
  });

  it("reads the request, new files included, and refuses malformed ones", () => {
    assert.deepEqual(asReviewParams(params), params);
    assert.equal(asReviewParams({ ...params, before: null })?.before, null);
    assert.equal(asReviewParams({ ...params, after: 3 }), undefined);
    assert.equal(asReviewParams(null), undefined);
  });

  it("takes the proposal's name when the server sends it, and does without it", () => {
    const named = { ...params, proposal: "〔KeSi's proposal: calc.py〕" };
    assert.equal(asReviewParams(named)?.proposal, "〔KeSi's proposal: calc.py〕");
    assert.equal(asReviewParams(params)?.proposal, undefined); // an older server
    assert.equal(asReviewParams({ ...params, proposal: 3 })?.proposal, undefined);
  });

  it("refuses a request without the server's words or with an unknown decision", () => {
    assert.equal(asReviewParams({ ...params, question: undefined }), undefined);
    assert.equal(asReviewParams({ ...params, actions: [] }), undefined);
    assert.equal(
      asReviewParams({ ...params, actions: [{ title: "x", decision: "maybe" }] }),
      undefined,
    );
  });

  it("keeps the file name last in the virtual documents' paths", () => {
    assert.deepEqual(reviewPaths(3, "src/calc.py"), {
      before: "/3/before/src/calc.py",
      after: "/3/after/src/calc.py",
    });
  });

  it("announces reviewEdit only in diff-editor mode, which needs a restart to change", () => {
    const always = {
      stream: true,
      saveDocuments: true,
      plan: true,
      diagnostics: true,
      hunks: true,
    };
    assert.deepEqual(kesiClientCapabilities(false), always);
    assert.deepEqual(kesiClientCapabilities(true), { ...always, reviewEdit: true });
    assert.equal(asReviewMode("diffEditor"), "diffEditor");
    assert.equal(asReviewMode("refactorPreview"), "refactorPreview");
    assert.equal(asReviewMode(undefined), "diffEditor"); // the default shows the change
    assert.equal(asReviewMode("nonsense"), "diffEditor");
    assert.equal(
      needsRestart((section) => section === "kesi.review"),
      true,
    );
  });
});
