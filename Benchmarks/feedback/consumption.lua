-- wrk script: one consumption report per seeded evaluation (IDs from TI_IDS, one per line), each thread taking
-- every n-th line so no evaluation is reported twice. The Bearer key comes from TI_KEY.
local key = os.getenv("TI_KEY")
local threads = {}

setup = function(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

init = function(args)
  ids = {}
  local stride = tonumber(os.getenv("TI_THREADS"))
  local line = 0
  for id in io.lines(os.getenv("TI_IDS")) do
    if line % stride == index then table.insert(ids, id) end
    line = line + 1
  end
  next_id = 1
end

request = function()
  local id = ids[next_id]
  next_id = next_id % #ids + 1
  return wrk.format("POST", "/v1/evaluations/" .. id .. "/consumption",
    {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"},
    '{"status":"usedIncreasedFriction","insightIDsUsed":[]}')
end
