#include "core/exec/backend.h"

#include <charconv>
#include <mutex>

#include "core/exec/cpu/cpu_backend.h"

namespace passlab::exec {

namespace {

std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}

std::vector<BackendRegistration>& registrations() {
  static std::vector<BackendRegistration> r;
  return r;
}

std::string builtList() {
  std::string list = "cpu";
  for (const std::string& n : availableBackends())
    if (n != "cpu") list += ", " + n;
  return list;
}

}  // namespace

void registerBackend(BackendRegistration registration) {
  std::lock_guard<std::mutex> lock(registryMutex());
  registrations().push_back(std::move(registration));
}

Expected<std::unique_ptr<Backend>> makeBackend(std::string_view name) {
  if (name == "cpu") return cpu::makeCpuBackend();
  std::string_view base = name;
  int index = 0;
  if (size_t colon = name.find(':'); colon != std::string_view::npos) {
    base = name.substr(0, colon);
    std::string_view digits = name.substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || end != digits.data() + digits.size() || index < 0)
      return invalidArgument("device '" + std::string(name) +
                             "': the part after ':' must be a device index (cuda:0)");
  }
  BackendRegistration found;
  {
    std::lock_guard<std::mutex> lock(registryMutex());
    for (const BackendRegistration& r : registrations())
      if (r.name == base) found = r;
  }
  if (found.create == nullptr) {
    std::string hint = base == "cuda" ? " (this build has no CUDA backend: configure with "
                                        "-DPASSLAB_CUDA=ON where the CUDA toolkit is installed)"
                                      : "";
    return unsupported("backend '" + std::string(name) +
                       "' is not available (built: " + builtList() + ")" + hint);
  }
  return found.create(index);
}

std::vector<std::string> availableBackends() {
  std::vector<std::string> names = {"cpu"};
  std::lock_guard<std::mutex> lock(registryMutex());
  for (const BackendRegistration& r : registrations()) names.push_back(r.name);
  return names;
}

Expected<std::vector<StepPlacement>> planPlacement(std::string_view name, const ir::Model& model) {
  std::string_view base = name.substr(0, name.find(':'));
  Expected<std::vector<StepPlacement>> (*plan)(const ir::Model&) = nullptr;
  {
    std::lock_guard<std::mutex> lock(registryMutex());
    for (const BackendRegistration& r : registrations())
      if (r.name == base) plan = r.plan;
  }
  if (plan == nullptr)
    return unsupported("backend '" + std::string(name) +
                       "' offers no placement plan (built: " + builtList() + ")");
  return plan(model);
}

std::vector<DeviceDescription> listDevices(std::vector<std::string>* notes) {
  std::vector<BackendRegistration> regs;
  {
    std::lock_guard<std::mutex> lock(registryMutex());
    regs = registrations();
  }
  std::vector<DeviceDescription> all;
  for (const BackendRegistration& r : regs) {
    auto found = r.devices();
    if (!found) {
      if (notes) notes->push_back(r.name + ": " + found.error().message());
      continue;
    }
    if (found->empty() && notes) notes->push_back(r.name + ": no device found");
    for (DeviceDescription& d : *found) all.push_back(std::move(d));
  }
  return all;
}

}  // namespace passlab::exec
