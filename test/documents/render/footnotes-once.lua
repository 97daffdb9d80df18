-- The corpus reference (./corpus.ts): GitHub shows a footnote once, however often it is referenced;
-- pandoc's gfm reader repeats the note at every reference. A repeated note becomes its number.
local seen, count = {}, 0
function Note(note)
  local key = pandoc.utils.stringify(note.content)
  if seen[key] then
    return pandoc.Superscript({ pandoc.Str(tostring(seen[key])) })
  end
  count = count + 1
  seen[key] = count
end
