#!/usr/bin/env bash
# The bench's figures checked from outside it (issue 28): the service started as a user starts it
# (`node` with the flags of `npm start`, dist/main.js, production mode), set up through its public API with
# curl, loaded by wrk (another tool, in C, in its own process), and the CPU of the service's process and of
# its PostgreSQL backends read from /proc before and after each run. Nothing of bench/run.ts is used.
#
#   npm run build && bench/outside.sh                       # PostgreSQL (TEST_DATABASE_URL), then PGlite
#   OUTSIDE_DB=postgres OUTSIDE_SECONDS=20 bench/outside.sh
#   OUTSIDE_STATEMENTS=1 …    each row's statements from pg_stat_statements (the extension loaded)
#   OUTSIDE_CPU_PROF=dir …    the service's CPU profile (node --cpu-prof) written to dir at its exit
#   OUTSIDE_NODE_FLAGS="…"    the service's node flags instead of npm start's (V8 settings compared)
#   OUTSIDE_ROWS="plan"       which rows (default "list plan")
#
# Needs wrk, curl, jq and psql (apt install wrk jq curl postgresql-client). API keys keep their real hourly
# limit (production keys, 10,000 an hour): the wrk script rotates through OUTSIDE_KEYS keys, using each for
# 9,000 requests, as a client would. A non-2xx answer is counted and printed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${OUTSIDE_SECONDS:-15}
KEYS=${OUTSIDE_KEYS:-20}
PORT=${OUTSIDE_PORT:-3190}
PG_URL=${BENCH_DATABASE_URL:-${TEST_DATABASE_URL:-}}
DBS=${OUTSIDE_DB:-$([ -n "$PG_URL" ] && echo "postgres pglite" || echo pglite)}
BASE=http://127.0.0.1:$PORT
WORK=$(mktemp -d)
FLAGS=${OUTSIDE_NODE_FLAGS:-}; [ -n "$FLAGS" ] || FLAGS=$(node -e "const s=require('./package.json').scripts.start; console.log(s.slice(s.indexOf('exec node ')+10, s.indexOf('dist/main.js')).trim())")
for tool in wrk curl jq psql; do command -v $tool >/dev/null || { echo "bench/outside.sh needs $tool" >&2; exit 2; }; done
[ -f dist/main.js ] || { echo "run npm run build first" >&2; exit 2; }

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
sys_ticks() { awk '{print $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
backends() { [ -n "${APP_NAME:-}" ] && psql "$PG_URL" -Atc "SELECT pid FROM pg_stat_activity WHERE application_name = '$APP_NAME'" || true; }
backend_ticks() { local t=0; for p in $(backends); do t=$((t + $(cpu_ticks "$p"))); done; echo $t; }
HZ=$(getconf CLK_TCK)

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; node $(node -v); wrk $(wrk -v 2>&1 | head -1 | awk '{print $2}')"
echo "service flags: $FLAGS"

run_wrk() { # name method path body-file key-file
  local name=$1 method=$2 path=$3 body=$4
  cat > "$WORK/script.lua" <<EOF
local keys = {}
for line in io.lines("$WORK/keys") do keys[#keys + 1] = line end
local body = nil
if "$body" ~= "" then local f = io.open("$body"); body = f:read("*a"); f:close() end
local n = 0
USED = tonumber(os.getenv("KEYS_USED") or "0")
request = function()
  n = n + 1
  local key = keys[(math.floor((USED + n) / 9000) % #keys) + 1]
  return wrk.format("$method", "$path", { ["X-API-Key"] = key, ["content-type"] = "application/json" }, body)
end
response = function(status, headers, body)
  if status >= 300 then print("non-2xx " .. status .. " " .. string.sub(body, 1, 200)) end
end
EOF
  local conns=$5
  # A short warm-up, then the measured run with the CPU of both processes read around it.
  # Requests already sent with the keys, across wrk runs: each key is used for 9,000 requests, then the next.
  KEYS_USED=$USED wrk -t1 -c"$conns" -d2s -s "$WORK/script.lua" "$BASE" > "$WORK/out"
  USED=$((USED + $(awk '/requests in/ {print $1}' "$WORK/out") + conns))
  local s0 b0 s1 b1 k0 k1
  [ -n "${OUTSIDE_STATEMENTS:-}" ] && psql "$PG_URL" -qAtc "SELECT pg_stat_statements_reset()" > /dev/null
  s0=$(cpu_ticks "$PID"); b0=$(backend_ticks); k0=$(sys_ticks "$PID")
  KEYS_USED=$USED wrk -t1 -c"$conns" -d"${SECONDS_PER_RUN}s" --latency -s "$WORK/script.lua" "$BASE" > "$WORK/out"
  s1=$(cpu_ticks "$PID"); b1=$(backend_ticks); k1=$(sys_ticks "$PID")
  local reqs rps p50 p99 errors
  reqs=$(awk '/requests in/ {print $1}' "$WORK/out")
  USED=$((USED + reqs + conns))
  rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/out")
  p50=$(awk '$1 == "50%" {print $2}' "$WORK/out")
  p99=$(awk '$1 == "99%" {print $2}' "$WORK/out")
  errors=$(grep -c '^non-2xx' "$WORK/out" || true)
  printf '%-44s %9s req/s  p50 %-8s p99 %-8s service %6d µs/req (%d in the kernel)' "$name ($conns conn.)" "$rps" "$p50" "$p99" $(( (s1 - s0) * 1000000 / HZ / reqs )) $(( (k1 - k0) * 1000000 / HZ / reqs ))
  [ -n "${APP_NAME:-}" ] && printf '  PostgreSQL %6d µs/req' $(( (b1 - b0) * 1000000 / HZ / reqs ))
  printf '  non-2xx %s; keys used %s of %s; RSS %s MiB (peak %s)\n' "$errors" $((USED / 9000 + 1)) "$KEYS" \
    "$(awk '/VmRSS/ {print int($2/1024)}' /proc/$PID/status)" "$(awk '/VmHWM/ {print int($2/1024)}' /proc/$PID/status)"
  grep -m3 '^non-2xx' "$WORK/out" || true
  # OUTSIDE_STATEMENTS=1 (PostgreSQL with pg_stat_statements loaded): what each statement cost per request.
  [ -n "${OUTSIDE_STATEMENTS:-}" ] && [ -n "${APP_NAME:-}" ] && psql "$PG_URL" -qAtF' | ' -c "
    SELECT round(calls::numeric / $reqs, 2) AS calls_per_req, round((total_exec_time * 1000 / $reqs)::numeric) AS exec_us,
           round((total_plan_time * 1000 / $reqs)::numeric) AS plan_us, left(regexp_replace(query, '\s+', ' ', 'g'), 110)
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY total_exec_time + total_plan_time DESC LIMIT 8" | sed 's/^/    /'
  return 0
}

for DB in $DBS; do
  if [ "$DB" = postgres ]; then
    [ -n "$PG_URL" ] || { echo "OUTSIDE_DB=postgres needs TEST_DATABASE_URL" >&2; exit 2; }
    SCHEMA=outside_$(date +%s)
    APP_NAME=$SCHEMA
    DB_URL="$PG_URL?application_name=$APP_NAME"
  else
    SCHEMA=; APP_NAME=; DB_URL=memory://
  fi
  echo; echo "== $DB"
  env NODE_ENV=production PROCESS_ROLES=migrate,api LOG_LEVEL=warn PORT=$PORT HOST=127.0.0.1 DATABASE_URL="$DB_URL" ${SCHEMA:+DATABASE_SCHEMA=$SCHEMA} \
    DATA_DIR="$WORK/data-$DB" JWT_SECRET=outside-jwt-secret-0123456789abcdefghijkl ENCRYPTION_KEY="$(head -c32 /dev/zero | base64)" \
    PLATFORM_ADMIN_EMAIL=admin@outside.test PLATFORM_ADMIN_PASSWORD=outside-admin-password API_KEY_ENVIRONMENT=production \
    node $FLAGS ${OUTSIDE_CPU_PROF:+--cpu-prof --cpu-prof-dir=$OUTSIDE_CPU_PROF} dist/main.js > "$WORK/service-$DB.log" 2>&1 &
  PID=$!
  until curl -sf "$BASE/api/v1/health" > /dev/null; do kill -0 $PID 2>/dev/null || { cat "$WORK/service-$DB.log"; exit 1; }; sleep 0.2; done
  echo "service pid $PID: RSS $(awk '/VmRSS/ {print int($2/1024)}' /proc/$PID/status) MiB after start"

  post() { curl -sS --fail-with-body "$BASE$1" -H 'content-type: application/json' "${@:3}" -d "$2"; }
  TENANT=$(post /api/v1/tenants/register '{"organization":{"name":"Outside Freight","address":"1 Main St, Dallas TX","phone":"+1 214 555 0100","contactEmail":"ops@outside.test","dotNumber":"7654321"},"adminUser":{"firstName":"Olga","lastName":"Outside","email":"olga@outside.test","password":"password123"}}' | jq -er .tenant.id)
  ADMIN=$(post /api/v1/auth/login '{"email":"admin@outside.test","password":"outside-admin-password"}' | jq -er .accessToken)
  curl -sS --fail-with-body -X POST "$BASE/api/v1/admin/tenants/$TENANT/approve" -H "authorization: Bearer $ADMIN" > /dev/null
  TOKEN=$(post /api/v1/auth/login '{"email":"olga@outside.test","password":"password123"}' | jq -er .accessToken)
  : > "$WORK/keys"
  for i in $(seq "$KEYS"); do post /api/v1/api-keys "{\"name\":\"outside $i\"}" -H "authorization: Bearer $TOKEN" | jq -er .key >> "$WORK/keys"; done
  for i in $(seq 200); do
    post /api/v1/drivers "{\"firstName\":\"Driver\",\"lastName\":\"Number $i\",\"licenseNumber\":\"OUT$i\",\"licenseState\":\"TX\"}" -H "authorization: Bearer $TOKEN" | jq -er .id > "$WORK/driver"
  done
  DRIVER=$(cat "$WORK/driver")
  # The request integrators send: five stops, fuel on, the driver's clocks from their log (no driverState).
  cat > "$WORK/plan.json" <<EOF
{"driverId":"$DRIVER","departureTime":"2026-03-02T12:00:00Z","options":{"includeFuelStops":true,"startingFuelGallons":100},
 "stops":[{"name":"Seattle, WA","latitude":47.6062,"longitude":-122.3321,"type":"ORIGIN","dockDurationHours":1},
          {"name":"Boise, ID","latitude":43.615,"longitude":-116.2023,"type":"PICKUP","dockDurationHours":2},
          {"name":"Denver, CO","latitude":39.7392,"longitude":-104.9903,"type":"WAYPOINT","dockDurationHours":0},
          {"name":"Kansas City, MO","latitude":39.0997,"longitude":-94.5786,"type":"PICKUP","dockDurationHours":1.5},
          {"name":"Columbus, OH","latitude":39.9612,"longitude":-82.9988,"type":"DELIVERY","dockDurationHours":2}]}
EOF
  USED=0
  echo "seeded: 1 organization, $KEYS API keys, 200 drivers; RSS $(awk '/VmRSS/ {print int($2/1024)}' /proc/$PID/status) MiB"
  case " ${OUTSIDE_ROWS:-list plan} " in *" list "*) run_wrk "GET /api/v1/drivers?page=1&pageSize=20" GET "/api/v1/drivers?page=1&pageSize=20" "" 10 ;; esac
  case " ${OUTSIDE_ROWS:-list plan} " in *" plan "*) run_wrk "POST /api/v1/routes/plan, clocks from the log" POST /api/v1/routes/plan "$WORK/plan.json" 4 ;; esac
  sleep 5
  echo "idle 5 s after the load: RSS $(awk '/VmRSS/ {print int($2/1024)}' /proc/$PID/status) MiB"
  kill $PID; wait $PID 2>/dev/null || true
  [ -n "$SCHEMA" ] && psql "$PG_URL" -qc "SET client_min_messages = warning; DROP SCHEMA $SCHEMA CASCADE" > /dev/null
done
rm -rf "$WORK"
