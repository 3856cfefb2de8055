// The files a command writes: never one of the files it reads (the model
// above all) unless asked (`optimize --in-place`), never two outputs on one
// file, and every file written through a temporary file renamed over it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/support/error.h"

namespace passlab::cli {

// A file the command reads or writes, with the option that names it
// ("the model", "--compare", "--csv", "-o"). An empty path or "-"
// (standard output) is no file.
struct NamedPath {
  std::string option;
  std::string path;
};

// Whether `a` and `b` are one file: by identity where both exist (hard
// links, symlinks), else by their normalized absolute paths ("./m.onnx" and
// "m.onnx"; a symlinked folder resolved as far as it exists).
bool sameFile(const std::string& a, const std::string& b);

// An error naming the option and the file when an output is one of the
// inputs, or two outputs are one file; ok otherwise. Checked before any
// work, so a refused command writes nothing.
Status checkOutputPaths(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs);

// The files among `--input` values NAME=FILE (a value ending in .npy or .pb,
// as run_inputs.cpp reads them), each as an input named "--input NAME".
std::vector<NamedPath> inputFilesOf(const std::vector<std::string>& specs);

// The files directly in folder `dir` (an --input-dir), each as an input
// named `option`; none when `dir` is empty or no folder.
std::vector<NamedPath> filesIn(const std::string& option, const std::string& dir);

// The files of a --calibration-data folder `dir` as pipeline::calibrationFolder
// reads it (DIR/input_K.*, or DIR/<set>/input_K.*): the files directly in
// `dir` and in its subfolders, each as an input named `option`; none when
// `dir` is empty or no folder.
std::vector<NamedPath> calibrationFilesIn(const std::string& option, const std::string& dir);

// An error when an output would be a file the --calibration-data folder `dir`
// is read by (input_K.pb or input_K.npy in `dir` or in a subfolder of it),
// existing or not: a new input_1.npy in a set of a one-input model, or an
// input_0.pb in `dir` itself, breaks the data's next read. Ok when `dir` is
// empty; existing files are inputs (calibrationFilesIn) too.
Status checkCalibrationNames(const NamedPath& dir, const std::vector<NamedPath>& outputs);

// `run --save-outputs DIR` writes DIR/outputs.json, DIR/input_K.npy and
// DIR/output_K.npy: an error when one of these is one of `inputs` (an --input
// file saved there by an earlier run: the same name in DIR, a symlink or a
// hard link to it) or one of `outputs` (--memory-report DIR/outputs.json);
// ok otherwise, and when `dir` is empty.
Status checkSaveDir(const NamedPath& dir, const std::vector<NamedPath>& inputs,
                    const std::vector<NamedPath>& outputs);

// Writes `text` to `path` through a temporary file in its folder renamed over
// it: a failure leaves the old file (or none), never a partial one.
Status writeFileAtomically(const std::string& path, std::string_view text);

}  // namespace passlab::cli
