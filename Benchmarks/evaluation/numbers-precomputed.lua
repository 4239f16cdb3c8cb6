-- numbers.lua with its bodies made once per wrk thread, in init, and cycled: 1,024 distinct bodies of 32 numbers.
-- For client-cost.sh, to show what building a body per request (32 numbers formatted in Lua) costs the load
-- generator, which shares the server's cores. The bodies are built in init, not at load time, because wrk.format
-- only knows the Host header once the thread is set up.
local bodies = {}
local count = 1024

init = function(args)
  for counter = 1, count do
    local values = {}
    for i = 1, 32 do values[i] = tostring((counter * 31 + i * 17) % 10007 / 8) end
    local body = '{"values":[' .. table.concat(values, ",") .. ']}'
    bodies[counter] = wrk.format("POST", "/numbers", {["Content-Type"] = "application/json"}, body)
  end
end

local sent = 0
request = function()
  sent = sent % count + 1
  return bodies[sent]
end
