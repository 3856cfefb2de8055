#include "app/cli/output_files.h"

#include <filesystem>
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

Status writeFileAtomically(const std::string& path, std::string_view text) {
  io::AtomicFile file(path);
  Status s = file.open();
  if (s.isOk()) s = file.write(text);
  if (s.isOk()) s = file.commit();
  return s;
}

}  // namespace passlab::cli
