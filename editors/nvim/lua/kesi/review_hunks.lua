---@mod kesi.review_hunks Hunk by hunk in the review tab (design.md §2.9).
--- The proposal is cut into hunks (`vim.diff`); each can be accepted or rejected on its own.
--- The right-hand buffer always shows what would land: rejected hunks show their old lines.
--- The answer is the text the user accepted, so the server applies exactly that.

local M = {}

---@class kesi.ReviewHunk
---@field a_first integer first line in "before" (1-based)
---@field a_count integer
---@field b_first integer first line in "after"
---@field b_count integer
---@field decision string? "accepted" | "rejected" | nil (not decided yet)
---@field row integer? first row in the shown buffer (1-based), set by compose()
---@field rows integer? rows it takes there

--- Lines of a text as `vim.diff` counts them (a final newline leaves no extra line).
---@param text string
---@return string[]
function M.lines(text)
  local lines = vim.split(text or '', '\n', { plain = true })
  if lines[#lines] == '' then
    table.remove(lines)
  end
  return lines
end

--- The hunks of `before` -> `after`, in order.
---@param before string
---@param after string
---@return kesi.ReviewHunk[]
function M.compute(before, after)
  local ok, found = pcall(vim.diff, before, after, { result_type = 'indices' })
  local hunks = {}
  for _, h in ipairs(ok and found or {}) do
    local a_start, a_count, b_start, b_count = h[1], h[2], h[3], h[4]
    table.insert(hunks, {
      a_first = a_count > 0 and a_start or a_start + 1,
      a_count = a_count,
      b_first = b_count > 0 and b_start or b_start + 1,
      b_count = b_count,
    })
  end
  return hunks
end

--- The lines that would land: each hunk's new lines unless rejected. Records where each hunk
--- is shown (`row`, `rows`).
---@param before string[]
---@param after string[]
---@param hunks kesi.ReviewHunk[]
---@return string[]
function M.compose(before, after, hunks)
  local out, next_a = {}, 1
  for _, h in ipairs(hunks) do
    for i = next_a, h.a_first - 1 do
      table.insert(out, before[i])
    end
    h.row = #out + 1
    if h.decision == 'rejected' then
      for i = h.a_first, h.a_first + h.a_count - 1 do
        table.insert(out, before[i])
      end
      h.rows = h.a_count
    else
      for i = h.b_first, h.b_first + h.b_count - 1 do
        table.insert(out, after[i])
      end
      h.rows = h.b_count
    end
    next_a = h.a_first + h.a_count
  end
  for i = next_a, #before do
    table.insert(out, before[i])
  end
  return out
end

--- The text that would land, with the final newline the proposal has (or not).
---@param lines string[]
---@param after string
---@return string
function M.text(lines, after)
  local text = table.concat(lines, '\n')
  if after:sub(-1) == '\n' and #lines > 0 then
    text = text .. '\n'
  end
  return text
end

--- The hunk at `row` of the shown buffer (`side` "after"), or of the "before" buffer.
---@param hunks kesi.ReviewHunk[]
---@param row integer
---@param side string "before" | "after"
---@return integer? index
function M.at(hunks, row, side)
  for i, h in ipairs(hunks) do
    local first = side == 'before' and h.a_first or h.row
    local count = side == 'before' and h.a_count or h.rows
    if row >= first and row <= first + math.max(count, 1) - 1 then
      return i
    end
  end
  return nil
end

--- The next undecided hunk after `index` (wrapping), or nil when all are decided.
---@param hunks kesi.ReviewHunk[]
---@param index integer
---@return integer?
function M.next_open(hunks, index)
  for step = 1, #hunks do
    local i = (index + step - 1) % #hunks + 1
    if hunks[i].decision == nil then
      return i
    end
  end
  return nil
end

---@param hunks kesi.ReviewHunk[]
---@return { accepted: integer, rejected: integer, open: integer }
function M.counts(hunks)
  local c = { accepted = 0, rejected = 0, open = 0 }
  for _, h in ipairs(hunks) do
    if h.decision == 'accepted' then
      c.accepted = c.accepted + 1
    elseif h.decision == 'rejected' then
      c.rejected = c.rejected + 1
    else
      c.open = c.open + 1
    end
  end
  return c
end

return M
