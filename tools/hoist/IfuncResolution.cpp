#include "IfuncResolution.h"

#include <string>

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

namespace hoist {
namespace {

bool sameFile(const char *a, const char *b) {
  struct stat first, second;
  return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev &&
         first.st_ino == second.st_ino;
}

} // namespace

std::optional<uint64_t> hostIfuncImplementation(const Image &image, const Symbol &ifunc) {
  // RTLD_NOLOAD: a handle only if the file is already mapped; nothing is loaded and none of
  // the input's code runs.
  std::string path = image.path().str();
  void *handle = dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!handle)
    return std::nullopt;
  std::optional<uint64_t> found;
  struct link_map *map = nullptr;
  Dl_info info{};
  // dlsym on an IFUNC returns what its resolver returned when the linker ran it.
  void *implementation = dlsym(handle, ifunc.name.c_str());
  if (implementation && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
      dladdr(implementation, &info) && info.dli_fname &&
      sameFile(info.dli_fname, path.c_str()) && sameFile(map->l_name, info.dli_fname)) {
    uint64_t linkTime = reinterpret_cast<uint64_t>(implementation) - map->l_addr;
    uint64_t address = linkTime + image.loadBias();
    if (image.isExecutable(address))
      found = address;
  }
  dlclose(handle);
  return found;
}

} // namespace hoist
