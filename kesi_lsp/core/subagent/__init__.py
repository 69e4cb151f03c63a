"""The search sub-agent: a fresh, read-only loop that answers one search task.

Day 01 promises it: 它甚至會另外開一個乾淨的分身去搜，搜完只把結論帶回來，免得把一堆無關的檔案
內容塞進正事的對話裡. A wide search done inline fills the main conversation with file contents
that every later request resends; done here, the main conversation gains one tool call and a
conclusion with `path:line` references (bench: the tokens a search adds to the main
conversation).

- **Fresh**: its own history and read records (what it read does not count as read by the main
  agent, so write_file still wants a read of its own), its own system prompt and turn limit
  (`search_max_turns`), the same fence and ignore list (the same workspace root).
- **Read-only, by construction**: the only tools it is shown and the only ones its dispatch
  runs are read_file, list_files, glob and grep; it is never given the model client, so it
  cannot start another sub-agent.
- **Visible**: its text, tool calls and usage reach the user as `Nested` events under the
  tool call that started it; every request is charged to the run's bill (`purpose: search`),
  per round and as a running sub-total.
- **Stoppable**: cancelling the run cancels it (the stream is closed, a running tool stopped);
  the tool call is then answered as any interrupted tool is. Its own loop detection stops it
  going round in circles; at its turn limit it must conclude from what it found.

`loop.py` is the loop, `prompt.py` its system prompt.
"""
