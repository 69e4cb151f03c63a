"""Was a run verified: which commands check code (`checks`), the tracker that watches a run's
events (`tracker`) and the verdict it reaches (`verdict`), design §2.10."""
