#!/usr/bin/env bash
# Side by side: the Reversi endgame solver of two builds of `reversi_ffo`
# (cargo build --release -p gamebot-research --bin reversi_ffo, copied aside
# per build) on the same FFO positions, run alternately in rounds so that
# the ratio new/old is what to read. The new build also runs with
# `--portable` (its portable node searches) when it knows that option.
#
#   bench/ffo_side_by_side.sh OLD NEW ROUNDS FILE FIRST [reversi_ffo options…]
#   bench/ffo_side_by_side.sh /tmp/ffo-old /tmp/ffo-new 2 \
#       tests/data/reversi/fforum-20-39.obf 20 --table-log2 20
set -euo pipefail
old=$1; new=$2; rounds=$3; file=$4; first=$5; shift 5
variants=(old new)
if "$new" --help | grep -q -- --portable; then variants+=(new-portable); fi
for r in $(seq "$rounds"); do
  for v in "${variants[@]}"; do
    case $v in
      old) cmd=("$old" "$file" --first "$first" "$@") ;;
      new) cmd=("$new" "$file" --first "$first" "$@") ;;
      new-portable) cmd=("$new" "$file" --first "$first" "$@" --portable) ;;
    esac
    start=$(date +%s.%N)
    out=$("${cmd[@]}")
    end=$(date +%s.%N)
    # Column 7 of the table rows is the node count.
    nodes=$(awk -F'|' 'NR > 2 { n += $7 } END { print n }' <<< "$out")
    wrong=$(grep -c WRONG <<< "$out" || true)
    printf 'round %s %-12s %6.2f s  %s nodes  %s wrong\n' "$r" "$v" "$(bc <<< "$end - $start")" "$nodes" "$wrong"
  done
done
