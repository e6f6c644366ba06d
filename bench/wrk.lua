-- The request generator and answer check for one wrk window (bench/load.ts runs wrk with it).
-- Requests are built here in LuaJIT, not in JavaScript, so that the generator stays far from
-- saturating its core (load.ts samples its CPU and the server's and prints both).
--
-- Arguments (after --): workload, data directory, first new-record number, batch size, W3 path,
-- records the server holds (reads pick among the first that many of the data's records),
-- "one" when every W3/W3U request is to send the same query (the middle group's) instead of a
-- group picked at random, how many consecutive records share each W3/W3U value (`--hits`), and
-- "scattered" when the preload scattered each group's records (`--scattered`): any of them may
-- then come first in an answer, which lists records in arrival order.
-- Every answer is checked (status and exact body length): the expected length is found from the
-- answer itself (the first record's id), since wrk does not say which request an answer is for.
local workload, dir, first, batch, w3path, one_query, hits, scattered
local lens, groups, templates = {}, {}, {}
local records, envelope = 0, 0
local counter = 0
correct, wrong, first_wrong, next_new = 0, 0, "", 0

local function read_numbers(file, into)
  local n = 0
  for line in io.lines(file) do n = n + 1; into[n] = tonumber(line) end
  return n
end

function init(args)
  workload, dir, first, batch, w3path = args[1], args[2], tonumber(args[3]), tonumber(args[4]), args[5]
  records = math.min(read_numbers(dir .. "/lens.txt", lens), tonumber(args[6]) or math.huge)
  one_query = args[7] == "one"
  hits = tonumber(args[8])
  scattered = args[9] == "scattered"
  read_numbers(dir .. "/groups.txt", groups)
  local i = 0
  for line in io.lines(dir .. "/templates.txt") do
    i = i + 1
    local a, b, c = line:match("^(.-)\1(.-)\2(.*)$")
    templates[i] = { a, b, c }
  end
  envelope = tonumber(io.open(dir .. "/envelope.txt"):read("*l"))
  counter = first
  next_new = first
  headers = { ["Authorization"] = "Bearer " .. os.getenv("BENCH_TOKEN"), ["Content-Type"] = "application/json" }
  getheaders = { ["Authorization"] = headers["Authorization"] }
end

-- A new record: id new-NNNNNNNNNN (fixed width, so every created envelope has the same length),
-- source under 11.0.0.0/8 (W3 never asks for it), the rest from one of the prebuilt templates.
-- Id and source climb with the record's number. W4S scatters the source, W4R the id: the
-- number times an odd constant modulo 2^24, still one per record while a run writes fewer than
-- 2^24 (W4R's ids start with a 9, apart from every climbing id), but consecutive records land far
-- apart in that index.
local function spread(seq)
  return (seq * 40503) % 16777216
end

local function new_record(mode)
  local seq = counter
  counter = counter + 1
  next_new = counter
  local t = templates[(seq % #templates) + 1]
  local n = mode == "W4S" and spread(seq) or seq
  local id = mode == "W4R" and 9000000000 + spread(seq) or seq
  local source = string.format("11.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  return t[1] .. string.format("new-%010d", id) .. t[2] .. source .. t[3]
end

local full_groups
function request()
  if workload == "W1" then
    local i = math.random(0, records - 1)
    return wrk.format("GET", string.format("/event/ev-%07d", i), getheaders)
  elseif workload == "W3" or workload == "W3U" then
    full_groups = full_groups or math.floor(records / hits)
    local g = one_query and math.floor(full_groups / 2) or math.random(0, full_groups - 1)
    local value
    if workload == "W3" then
      value = string.format("10.%d.%d.%d", math.floor(g / 65536) % 256, math.floor(g / 256) % 256, g % 256)
    else
      value = string.format("f-%07d", g)
    end
    return wrk.format("GET", "/event", headers, '{"where":{"equals":{"target":"' .. w3path .. '","expr":"' .. value .. '"}}}')
  elseif workload == "W2" then
    return wrk.format("POST", "/event", headers, new_record())
  else
    local parts = {}
    for k = 1, batch do parts[k] = new_record(workload) end
    return wrk.format("POST", "/event", headers, "[" .. table.concat(parts, ",") .. "]")
  end
end

local function check(ok, status, body)
  if ok then correct = correct + 1; return end
  wrong = wrong + 1
  if first_wrong == "" then first_wrong = "HTTP " .. status .. ", " .. #body .. " bytes: " .. body:sub(1, 300) end
end

-- Records start with {"id":"ev-NNNNNNN": the record number is at bytes 12..18 of an answer "[{...".
function response(status, hdrs, body)
  if workload == "W1" then
    local i = tonumber(body:sub(12, 18))
    check(status == 200 and i ~= nil and i < records and #body == lens[i + 1] + 2, status, body)
  elseif workload == "W3" or workload == "W3U" then
    local i = tonumber(body:sub(12, 18))
    local first_of_group = i ~= nil and (scattered or i % hits == 0)
    check(status == 200 and first_of_group and i < records and #body == groups[math.floor(i / hits) + 1], status, body)
  elseif workload == "W2" then
    check(status == 201 and #body == envelope + 2, status, body) -- "[envelope]"
  else
    check(status == 201 and #body == 1 + batch * (envelope + 1), status, body)
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local c, w, f, n = 0, 0, "", 0
  for _, t in ipairs(threads) do
    c = c + t:get("correct")
    w = w + t:get("wrong")
    if f == "" then f = t:get("first_wrong"):gsub('[%c"\\]', "?") end
    n = math.max(n, t:get("next_new"))
  end
  io.write(string.format('BENCH-RESULT {"correct":%d,"wrong":%d,"errors":%d,"timeouts":%d,"micros":%d,"p50":%d,"p99":%d,"nextNew":%d,"firstWrong":"%s"}\n',
    c, w, summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout,
    summary.duration, latency:percentile(50), latency:percentile(99), n, f))
end
