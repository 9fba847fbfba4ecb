// A command about to end its process leaves what it built to the operating system.
#pragma once

#include <memory>

namespace hoist {

/// Whether the process frees what it leaves at exit: only sanitizer builds do, so that leak
/// checks keep their meaning.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool FreeAtExit = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool FreeAtExit = true;
#else
constexpr bool FreeAtExit = false;
#endif
#else
constexpr bool FreeAtExit = false;
#endif

/// The process is about to exit: what `owned` holds (the module, the lifter with discovery's
/// program CFG, the context, the image) is left to the operating system, as clang's
/// -disable-free does. Freeing the IR value by value took an eighth of `hoist lift --all`
/// (docs/PERFORMANCE.md), and after `-j` workers it ran on one thread alone. Sanitizer builds
/// free them (FreeAtExit), in the order given: users before what they use. Left to the
/// destructors, whose order the compiler picks, clang freed the context before the module
/// and every `hoist lift` of the sanitizer build crashed at exit (sweep_sample).
template <typename... Owned>
void leaveToTheOperatingSystem(std::unique_ptr<Owned> &...owned) {
  if (FreeAtExit)
    (owned.reset(), ...);
  else
    ((void)owned.release(), ...);
}

} // namespace hoist
