// The Python module's view of Hoist, in standard C++ types only. The pybind11 side
// (Module.cpp) needs RTTI and exceptions, which LLVM's headers are not built for; this header
// keeps LLVM out of it (the public headers it includes are standard C++ only), and Facade.cpp,
// compiled like the rest of Hoist, does the work.
#pragma once

#include "hoist/ControlFlowTypes.h"
#include "hoist/ImageTypes.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace hoist::python {

/// What the CLI prints after "hoist: error: ".
struct Failure {
  std::string message;
};
template <typename T> using Outcome = std::variant<T, Failure>;

struct DiagnosticRecord {
  std::string severity;   ///< "note", "warning", "error"
  std::string code;
  std::optional<uint64_t> address;
  std::string message;
};

struct CfgRecord {
  ControlFlow flow;
  std::vector<DiagnosticRecord> diagnostics;
};

struct LiftStatsRecord {
  uint64_t instructions = 0, blocks = 0, functions = 0;
  std::map<std::string, uint64_t> unsupported;
};

struct LiftRecord {
  std::string ir;          ///< text IR, or bitcode bytes when asked for bitcode
  bool bitcode = false;
  LiftStatsRecord stats;
  std::vector<DiagnosticRecord> diagnostics;
};

struct LiftArguments {
  std::vector<std::string> functions;   ///< names or 0x addresses; empty: main, else entry
  bool all = false;
  bool callees = true;
  unsigned optLevel = 2;
  std::string brighten;                 ///< "", "default", "sysv" or "win64"
  bool deobfuscate = false;
  bool bitcode = false;
  std::optional<double> timeoutSeconds;
};

struct CfgArguments {
  std::vector<std::string> functions;
  bool all = false;
  std::optional<double> timeoutSeconds;
};

/// A loaded binary. Read-only once loaded, so lifts may run on several threads at once.
class Binary {
public:
  static Outcome<std::shared_ptr<Binary>> load(const std::string &path,
                                               std::optional<uint64_t> rawBase);
  ~Binary();

  std::string path() const;
  std::string format() const;   ///< "elf", "pe", "raw"
  std::string kind() const;     ///< "ELF PIE", "PE32+ DLL", ...
  uint64_t entry() const;
  uint64_t imageBase() const;
  const std::vector<Section> &sections() const;
  const std::vector<Symbol> &symbols() const;
  const std::vector<Import> &imports() const;
  const std::vector<Export> &exports() const;

  Outcome<CfgRecord> cfg(const CfgArguments &arguments) const;
  Outcome<LiftRecord> lift(const LiftArguments &arguments) const;

  struct Loaded;

private:
  explicit Binary(std::unique_ptr<Loaded> loaded);
  std::unique_ptr<Loaded> loaded_;
};

} // namespace hoist::python
