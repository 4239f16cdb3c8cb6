-- wrk script for the bare HTTP route: POST / on http-conformance-target, which answers with the body it got. It sends
-- evaluate.lua's own requests with the path changed, so this measures what our HTTP server alone costs for an
-- evaluation's request and an answer of similar size: no JSON decoding, no work behind it. Like evaluate.lua it
-- reads TI_KEY (any value will do: the route does not check it).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "evaluate.lua")
local evaluation = request

request = function()
  return (evaluation():gsub("^POST /v1/evaluations ", "POST / ", 1))
end
