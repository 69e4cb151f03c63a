import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { saveDocuments, type SavableDocument } from "../core/saveDocuments";

class Doc implements SavableDocument {
  saves = 0;
  constructor(
    public isDirty: boolean,
    private readonly outcome: boolean | Error = true,
  ) {}
  async save(): Promise<boolean> {
    this.saves++;
    if (this.outcome instanceof Error) {
      throw this.outcome;
    }
    this.isDirty = !this.outcome;
    return this.outcome;
  }
}

describe("saveDocuments", () => {
  it("saves exactly the documents asked for and leaves other unsaved work alone", async () => {
    const asked = new Doc(true);
    const other = new Doc(true);
    const docs: Record<string, Doc> = { "file:///a": asked, "file:///other": other };
    const result = await saveDocuments(["file:///a"], (uri) => docs[uri]);
    assert.deepEqual(result, { saved: ["file:///a"], notOpen: [], failed: [] });
    assert.equal(asked.saves, 1);
    assert.equal(other.saves, 0);
    assert.equal(other.isDirty, true);
  });

  it("does not rewrite a clean document, and reports documents that are not open", async () => {
    const clean = new Doc(false);
    const result = await saveDocuments(["file:///clean", "file:///closed"], (uri) =>
      uri === "file:///clean" ? clean : undefined,
    );
    assert.deepEqual(result, { saved: ["file:///clean"], notOpen: ["file:///closed"], failed: [] });
    assert.equal(clean.saves, 0);
  });

  it("reports a save that fails or throws", async () => {
    const docs: Record<string, Doc> = {
      "file:///no": new Doc(true, false),
      "file:///boom": new Doc(true, new Error("disk full")),
    };
    const result = await saveDocuments(["file:///no", "file:///boom"], (uri) => docs[uri]);
    assert.deepEqual(result, { saved: [], notOpen: [], failed: ["file:///no", "file:///boom"] });
  });

  it("saves a document named twice once", async () => {
    const doc = new Doc(true);
    const result = await saveDocuments(["file:///a", "file:///a"], () => doc);
    assert.equal(doc.saves, 1);
    assert.deepEqual(result.saved, ["file:///a"]);
  });
});
