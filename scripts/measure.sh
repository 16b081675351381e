# Shared by the benchmark scripts (sourced, not run).

# descendants PID: every process below PID, at any depth.
descendants() {
  local child
  for child in $(pgrep -P "$1" 2>/dev/null || true); do
    echo "$child"
    descendants "$child"
  done
}

# peak_memory COMMAND…: runs COMMAND, sampling every 0.1 s, and prints the peak resident set of
# the command itself and of the largest of its descendants (engine processes), in KiB.
peak_memory() {
  "$@" >/dev/null 2>&1 &
  local parent=$! parent_kb=0 child_kb=0 kb child
  while kill -0 "$parent" 2>/dev/null; do
    kb=$(ps -o rss= -p "$parent" 2>/dev/null | tr -d ' ' || true)
    [ -n "$kb" ] && [ "$kb" -gt "$parent_kb" ] && parent_kb=$kb
    for child in $(descendants "$parent"); do
      kb=$(ps -o rss= -p "$child" 2>/dev/null | tr -d ' ' || true)
      [ -n "$kb" ] && [ "$kb" -gt "$child_kb" ] && child_kb=$kb
    done
    sleep 0.1
  done
  wait "$parent"
  echo "$parent_kb $child_kb"
}
