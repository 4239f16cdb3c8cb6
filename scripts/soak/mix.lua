-- wrk script for scripts/soak.sh: the realistic mix. Evaluations (bodies from the simulator, TI_BODIES), each
-- followed later by its mandatory consumption report, label batches of 100 for insights evaluated earlier
-- (partner key), and GET /v1/metrics/labels exports (analyst key) when TI_EXPORT=1.
--
-- Run with as many threads as connections (-tN -cN): each thread then has one request in flight, so the time
-- from request() to response() is that request's latency. Every request is logged to TI_LOG_DIR/thread-N.log as
-- "<wall ms at send> <latency us> <kind> <status>" for scripts/soak/report.py. TI_RATE (requests/s, all threads
-- together; 0 = as fast as possible) paces the threads open-loop.
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } soak_timespec;
int clock_gettime(int clock, soak_timespec *time);
]]
local timespec = ffi.new("soak_timespec")
local function clock_us(clock)
  ffi.C.clock_gettime(clock, timespec)
  return tonumber(timespec.tv_sec) * 1000000 + math.floor(tonumber(timespec.tv_nsec) / 1000)
end

local created = 0
function setup(thread)
  created = created + 1
  thread:set("id", created)
end

local statuses = { "usedReducedFriction", "usedUnchangedFriction", "usedIncreasedFriction", "notUsedNotNeeded",
  "notUsedError", "usedEvaluationOnly" }
local fraudTypes = { "techSupport", "authorityImpersonation", "familyEmergency", "romance", "investment", "other" }
local bands = { "under10", "10to100", "100to1k", "1kTo10k", "over10k" }

function init(args)
  bodies = {}
  for line in io.lines(os.getenv("TI_BODIES")) do bodies[#bodies + 1] = line end
  log = io.open(os.getenv("TI_LOG_DIR") .. "/thread-" .. id .. ".log", "w")
  log:setvbuf("line")
  client = "Bearer " .. os.getenv("TI_CLIENT_KEY")
  partner = "Bearer " .. os.getenv("TI_PARTNER_KEY")
  analyst = "Bearer " .. (os.getenv("TI_ANALYST_KEY") or "")
  export = os.getenv("TI_EXPORT") == "1"
  local rate = tonumber(os.getenv("TI_RATE") or "0")
  interval = rate > 0 and tonumber(os.getenv("TI_THREADS")) * 1000000 / rate or 0
  nextSlot = clock_us(1)
  sequence = 0
  cursor = id * 7919
  pending, pendingFirst, pendingLast = {}, 1, 0
  labelPool, labelCount = {}, 0
  today = os.date("!%Y-%m-%d")
end

function delay()
  if interval == 0 then return 0 end
  local now = clock_us(1)
  if nextSlot < now then nextSlot = now end
  local wait = nextSlot - now
  nextSlot = nextSlot + interval
  return math.floor(wait / 1000)
end

local function json(method, path, key, body)
  return wrk.format(method, path, { ["Authorization"] = key, ["Content-Type"] = "application/json" }, body)
end

local function consumption()
  local evaluation = pending[pendingFirst]
  pending[pendingFirst] = nil
  pendingFirst = pendingFirst + 1
  local status = statuses[(sequence % #statuses) + 1]
  local used = ""
  if status:sub(1, 4) == "used" and #evaluation.insights > 0 then used = '"' .. evaluation.insights[1] .. '"' end
  return json("POST", "/v1/evaluations/" .. evaluation.id .. "/consumption", client,
    '{"status":"' .. status .. '","insightIDsUsed":[' .. used .. ']}')
end

local function labels()
  local items = {}
  for index = 1, 100 do
    local insight = labelPool[labelCount]
    labelPool[labelCount] = nil
    labelCount = labelCount - 1
    local fraud = (sequence + index) % 20 == 0
    local band = (index % 3 == 0) and 'null' or ('"' .. bands[(index % #bands) + 1] .. '"')
    items[index] = '{"insightID":"' .. insight .. '","label":"' .. (fraud and "confirmedFraud" or "confirmedLegitimate") ..
      '","fraudType":"' .. fraudTypes[(index % #fraudTypes) + 1] .. '","occurredOn":"' .. today .. '","amountBand":' .. band .. '}'
  end
  return json("POST", "/v1/labels", partner, '{"items":[' .. table.concat(items, ",") .. ']}')
end

function request()
  sequence = sequence + 1
  sentWall = clock_us(0)
  sentAt = clock_us(1)
  if export and sequence % 500 == 0 then
    kind = "export"
    return wrk.format("GET", "/v1/metrics/labels", { ["Authorization"] = analyst })
  elseif sequence % 50 == 25 and labelCount >= 100 then
    kind = "labels"
    return labels()
  elseif sequence % 2 == 0 and pendingFirst <= pendingLast then
    kind = "consumption"
    return consumption()
  end
  kind = "evaluation"
  cursor = cursor % #bodies + 1
  return json("POST", "/v1/evaluations", client, bodies[cursor])
end

function response(status, headers, body)
  log:write(string.format("%d %d %s %d\n", math.floor(sentWall / 1000), clock_us(1) - sentAt, kind, status))
  if kind == "evaluation" and status == 200 then
    local evaluation = { id = body:match('"evaluationID":"([^"]+)"'), insights = {} }
    for insight in body:gmatch('"insightID":"([^"]+)"') do
      evaluation.insights[#evaluation.insights + 1] = insight
      if labelCount < 5000 then
        labelCount = labelCount + 1
        labelPool[labelCount] = insight
      end
    end
    pendingLast = pendingLast + 1
    pending[pendingLast] = evaluation
  end
end
