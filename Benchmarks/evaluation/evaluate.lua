-- wrk script: a realistic payment evaluation asking for two insights (current and the prior version), with the
-- account, device and payee drawn from pools so velocity state grows as in real traffic. The Bearer key comes
-- from the TI_KEY environment variable.
local key = os.getenv("TI_KEY")
local counter = 0

request = function()
  counter = counter + 1
  local account = "acct-" .. (counter % 50000)
  local device = "dev-" .. (counter % 70000)
  local payee = "payee-" .. (counter % 3000)
  local body = '{"requestID":"bench-' .. counter .. '","operationCategory":"payment",' ..
    '"requestedInsights":[{"insightType":"isLikelyBeingCoached","schema":"version1","modelVersion":"current"},' ..
    '{"insightType":"isLikelyBeingCoached","schema":"version1","modelVersion":{"specific":"2026.09.1"}}],' ..
    '"subject":{"accountRef":"' .. account .. '","deviceRef":"' .. device .. '","counterpartyRef":"' .. payee .. '"},' ..
    '"features":{"activeCall":' .. (counter % 3 == 0 and 1 or 0) .. ',"callDurationSeconds":' .. (counter % 900) ..
    ',"callerKnownToPerson":0,"screenSharingActive":0,"remoteAccessAppActive":0,"hesitationMillis":' .. (counter % 7000) ..
    ',"appSwitchesDuringFlow":' .. (counter % 5) .. ',"sessionDurationSeconds":' .. (30 + counter % 600) ..
    ',"timeOfDayBand":' .. (counter % 4) .. ',"amountBandRelativeToUsual":' .. (counter % 5) .. '}}'
  return wrk.format("POST", "/v1/evaluations", {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, body)
end
