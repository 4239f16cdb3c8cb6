-- wrk script: one consumption report per seeded evaluation (IDs from TI_IDS, one per line), each thread taking
-- every n-th line so no evaluation is reported twice. The Bearer key comes from TI_KEY.
local key = os.getenv("TI_KEY")
dofile(os.getenv("TI_HERE") .. "/ids.lua")

init = function(args)
  ids = read_ids()
  next_id = 1
end

request = function()
  local id = ids[next_id]
  next_id = next_id % #ids + 1
  return wrk.format("POST", "/v1/evaluations/" .. id .. "/consumption",
    {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"},
    '{"status":"usedIncreasedFriction","insightIDsUsed":[]}')
end
