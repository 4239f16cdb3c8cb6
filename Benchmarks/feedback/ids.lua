-- Shared by consumption.lua and labels.lua: each wrk thread reads its own share of the seeded IDs (TI_IDS, one per
-- line; thread i of TI_THREADS takes every line whose number is i modulo TI_THREADS), so no ID is used twice.
local threads = {}

setup = function(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

function read_ids()
  local ids = {}
  local stride = tonumber(os.getenv("TI_THREADS"))
  local line = 0
  for id in io.lines(os.getenv("TI_IDS")) do
    if line % stride == index then table.insert(ids, id) end
    line = line + 1
  end
  return ids
end
