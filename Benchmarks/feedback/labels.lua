-- wrk script: label batches of TI_BATCH items (default 1000) over seeded insights (IDs from TI_IDS), each thread
-- taking every n-th line, so batches are new labels rather than duplicates. The Bearer key comes from TI_KEY.
local key = os.getenv("TI_KEY")
dofile(os.getenv("TI_HERE") .. "/ids.lua")

init = function(args)
  ids = read_ids()
  batch = tonumber(os.getenv("TI_BATCH") or "1000")
  local day = os.date("!%Y-%m-%d")
  -- Bodies are built here, before the clock starts: building 100 KB of JSON in Lua per request made wrk, not
  -- the server, the bottleneck.
  bodies = {}
  local next_id = 1
  while next_id + batch - 1 <= #ids and #bodies < 400 do
    local items = {}
    for i = 1, batch do
      items[i] = '{"insightID":"' .. ids[next_id] .. '","label":"confirmedFraud","fraudType":"techSupport","occurredOn":"' .. day .. '"}'
      next_id = next_id + 1
    end
    table.insert(bodies, '{"items":[' .. table.concat(items, ",") .. ']}')
  end
  next_body = 1
end

request = function()
  local body = bodies[next_body]
  next_body = next_body % #bodies + 1
  return wrk.format("POST", "/v1/labels", {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, body)
end
