#include "app/cli/output_files.h"

#include <filesystem>
#include <regex>
#include <system_error>

#include "core/io/atomic_file.h"

namespace passlab::cli {

namespace fs = std::filesystem;

namespace {

bool isFile(const NamedPath& p) {
  return !p.path.empty() && p.path != "-";
}

// The absolute path with "." and ".." and the existing symlinks resolved.
fs::path normalized(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return p;
}

// Whether `name` is a file name `run --save-outputs` writes.
bool savedName(const std::string& name) {
  static const std::regex kSaved(R"((input|output)_[0-9]+\.npy|outputs\.json)");
  return std::regex_match(name, kSaved);
}

// The file of `p` that --save-outputs `dir` writes, "" when none: `p` itself
// when its folder is `dir` and its name one the save writes, else a file in
// `dir` with such a name that is `p` (a link to it).
std::string savedFileAs(const fs::path& dir, const std::string& p) {
  const fs::path file = normalized(p);
  if (file.parent_path() == dir && savedName(file.filename().string())) return file.string();
  std::error_code ec;
  if (!fs::exists(p, ec)) return "";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (savedName(it->path().filename().string()) && sameFile(it->path().string(), p))
      return it->path().string();
  return "";
}

}  // namespace

bool sameFile(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  if (fs::exists(a, ea) && fs::exists(b, eb)) {
    std::error_code ec;
    bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  return normalized(a) == normalized(b);
}

Status checkOutputPaths(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& out = outputs[i];
    if (!isFile(out)) continue;
    for (const NamedPath& in : inputs)
      if (isFile(in) && sameFile(in.path, out.path))
        return invalidArgument(out.option + " " + out.path + " is " + in.option + " (" + in.path +
                               "); PassLab never overwrites an input: give " + out.option +
                               " another file");
    for (size_t j = 0; j < i; ++j)
      if (isFile(outputs[j]) && sameFile(outputs[j].path, out.path))
        return invalidArgument(out.option + " " + out.path + " is the file of " +
                               outputs[j].option + " (" + outputs[j].path +
                               "); give each output a file of its own");
  }
  return Status::ok();
}

std::vector<NamedPath> inputFilesOf(const std::vector<std::string>& specs) {
  std::vector<NamedPath> files;
  for (const std::string& s : specs) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string what = s.substr(eq + 1);
    if (what.ends_with(".npy") || what.ends_with(".pb"))
      files.push_back({"--input " + s.substr(0, eq), what});
  }
  return files;
}

std::vector<NamedPath> filesIn(const std::string& option, const std::string& dir) {
  std::vector<NamedPath> files;
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) files.push_back({option, it->path().string()});
  return files;
}

std::vector<NamedPath> calibrationFilesIn(const std::string& option, const std::string& dir) {
  std::vector<NamedPath> files = filesIn(option, dir);
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(dir, ec)) return files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec))
      for (NamedPath& f : filesIn(option, it->path().string())) files.push_back(std::move(f));
  return files;
}

Status checkCalibrationNames(const NamedPath& dir, const std::vector<NamedPath>& outputs) {
  if (dir.path.empty()) return Status::ok();
  static const std::regex kRead(R"(input_[0-9]+\.(pb|npy))");
  const fs::path at = normalized(dir.path);
  for (const NamedPath& out : outputs) {
    if (!isFile(out)) continue;
    const fs::path file = normalized(out.path);
    if (!std::regex_match(file.filename().string(), kRead)) continue;
    const fs::path folder = file.parent_path();
    if (folder == at || folder.parent_path() == at)
      return invalidArgument(out.option + " " + out.path + " would be read as " + dir.option +
                             " (" + dir.path + " reads input_K.pb and input_K.npy in it and " +
                             "in its subfolders); PassLab never writes into an input: give " +
                             out.option + " another file");
  }
  return Status::ok();
}

Status checkSaveDir(const NamedPath& dir, const std::vector<NamedPath>& inputs,
                    const std::vector<NamedPath>& outputs) {
  if (dir.path.empty()) return Status::ok();
  const fs::path at = normalized(dir.path);
  for (const NamedPath& in : inputs) {
    if (!isFile(in)) continue;
    if (std::string f = savedFileAs(at, in.path); !f.empty())
      return invalidArgument(
          dir.option + " " + dir.path + " writes " + f + ", which is " + in.option + " (" +
          in.path + "); PassLab never overwrites an input: give " + dir.option + " another folder");
  }
  for (const NamedPath& out : outputs) {
    if (!isFile(out)) continue;
    if (std::string f = savedFileAs(at, out.path); !f.empty())
      return invalidArgument(out.option + " " + out.path + " is a file " + dir.option + " " +
                             dir.path + " writes (" + f + "); give each output a file of its own");
  }
  return Status::ok();
}

Status writeFileAtomically(const std::string& path, std::string_view text) {
  io::AtomicFile file(path);
  Status s = file.open();
  if (s.isOk()) s = file.write(text);
  if (s.isOk()) s = file.commit();
  return s;
}

}  // namespace passlab::cli
