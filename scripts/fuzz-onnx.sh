#!/usr/bin/env bash
# Fuzzes the worker's ONNX seeding (Sources/narrate-worker/onnx_seed.c: it parses the protobuf
# of whatever model file a user names) with libFuzzer and AddressSanitizer/UBSan for a fixed
# time, from small real models. Crashes, and a second seeding that changes anything, are kept
# under .build-fuzz-onnx/findings/.
#
# Usage: scripts/fuzz-onnx.sh [SECONDS]   (default 600)
# Seeds: the head of a Piper voice named by PIPER_MODEL (optional) and onnxruntime's small test
#   models, when .build/venv-piper-tests has them (scripts/test-piper.sh makes it).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
scratch=.build-fuzz-onnx
mkdir -p "$scratch/corpus" "$scratch/findings"
clang -g -O1 -fsanitize=fuzzer,address,undefined -ISources/narrate-worker \
  Tests/Fuzz/onnx_seed_fuzzer.c Sources/narrate-worker/onnx_seed.c -o "$scratch/onnx-seed-fuzzer" 2>/dev/null
for model in .build/venv-piper-tests/lib/python3*/site-packages/onnxruntime/datasets/*.onnx; do
  [ -f "$model" ] && { printf '\001'; cat "$model"; } > "$scratch/corpus/$(basename "$model")"
done
# The first byte of an input picks the rewrite (1: RandomNormalLike made stateless, as a Piper voice loads).
[ -n "${PIPER_MODEL:-}" ] && { printf '\001'; head -c 200000 "$PIPER_MODEL"; } > "$scratch/corpus/piper-head.onnx"
echo "Fuzzing the ONNX seeding for $seconds s; findings go to $scratch/findings/"
exec "$scratch/onnx-seed-fuzzer" "$scratch/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -artifact_prefix="$scratch/findings/" -print_final_stats=1
