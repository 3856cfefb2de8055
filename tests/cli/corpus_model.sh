# Shared steps of the CLI tests that run on one corpus model. Source it:
#   . "$(dirname "${BASH_SOURCE[0]}")/corpus_model.sh"
#   use_corpus_model CORPUS_DIR NAME   sets $corpus and $model ($corpus/models/NAME), or skips the
#                                      test (exit 77) with a message when it is absent;
#                                      PASSLAB_CORPUS_DIR, when set, wins over CORPUS_DIR
#   use_scratch_dir                    sets $dir to a new folder removed at exit
#   fail MESSAGE...                    prints FAIL: MESSAGE and exits 1

use_corpus_model() {
  corpus=${PASSLAB_CORPUS_DIR:-$1}
  model="$corpus/models/$2"
  if [ ! -f "$model" ]; then
    echo "corpus model not found at $model: skipped (set PASSLAB_CORPUS_DIR)"
    exit 77
  fi
}

use_scratch_dir() {
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
}

fail() {
  echo "FAIL: $*"
  exit 1
}
